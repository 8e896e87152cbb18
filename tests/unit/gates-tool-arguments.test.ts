// Arguments an upstream tool's gates call it with, made from its inputSchema alone: required
// properties with minimal valid values, the canary in free-text ones, and a clear refusal (never a
// guess) for what the gate cannot satisfy. Schemas come from an upstream, so hostile shapes too.
import { describe, expect, it } from "vitest";
import { toolArguments, UnsatisfiableSchema } from "@/lib/gates/tool-arguments";

const CANARY = "GATECANARYabc123";

describe("toolArguments", () => {
  it("fills required properties with minimal valid values and leaves optional non-text ones out", () => {
    const { args, planted } = toolArguments({
      type: "object",
      properties: {
        message: { type: "string" },
        count: { type: "integer", minimum: 3, maximum: 9 },
        ratio: { type: "number", exclusiveMinimum: 0.5 },
        flag: { type: "boolean" },
        kind: { type: "string", enum: ["a", "b"] },
        when: { type: "string", format: "date" },
        tags: { type: "array", items: { type: "string" } },
        nested: { type: "object", properties: { id: { type: "string", minLength: 12 } }, required: ["id"] },
        optionalNumber: { type: "number" },
      },
      required: ["message", "count", "ratio", "flag", "kind", "when", "tags", "nested"],
    });
    expect(args).toEqual({
      message: "gate check",
      count: 3,
      ratio: 1.5,
      flag: true,
      kind: "a",
      when: new Date().toISOString().slice(0, 10),
      tags: [],
      nested: { id: "gggggggggggg" },
    });
    expect(planted).toEqual([]);
  });

  it("puts the canary in every free-text argument, required or optional, nested too, within maxLength", () => {
    const { args, planted } = toolArguments(
      {
        type: "object",
        properties: {
          message: { type: "string" },
          note: { type: "string" },
          short: { type: "string", maxLength: 4 },
          kind: { type: "string", enum: ["x"] },
          inner: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
        },
        required: ["message", "kind", "inner", "short"],
      },
      CANARY,
    );
    expect(args).toEqual({ message: CANARY, note: CANARY, short: "g", kind: "x", inner: { text: CANARY } });
    expect(planted.sort()).toEqual(["inner.text", "message", "note"]);
  });

  it("keeps prototype-named properties as the upstream's own arguments", () => {
    const schema = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"string"},"constructor":{"type":"boolean"}},"required":["__proto__","constructor"]}',
    );
    const { args } = toolArguments(schema);
    expect(JSON.parse(JSON.stringify(args))).toEqual(JSON.parse('{"__proto__":"gate check","constructor":true}'));
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    // A required key that is only on Object.prototype is not described by the schema.
    expect(() => toolArguments({ type: "object", properties: {}, required: ["constructor"] })).toThrow(
      /constructor: required but not described/,
    );
  });

  it.each([
    ["a pattern", { code: { type: "string", pattern: "^[A-Z]{3}$" } }, /code: a string matching pattern/],
    ["a $ref", { code: { $ref: "#/defs/x" } }, /code: uses \$ref/],
    ["anyOf", { code: { anyOf: [{ type: "string" }, { type: "number" }] } }, /code: uses anyOf/],
    ["contradictory bounds", { n: { type: "integer", minimum: 5, maximum: 2 } }, /n: no integer fits between its bounds/],
    ["minLength above maxLength", { s: { type: "string", minLength: 9, maxLength: 2 } }, /s: minLength is above maxLength/],
    ["an unknown format", { s: { type: "string", format: "ipv6" } }, /s: string format ipv6/],
    ["no type", { s: {} }, /s: type null is not one the gate can fill/],
    ["an empty enum", { s: { enum: [] } }, /s: enum has no choices/],
  ])("refuses %s in a required property with the reason", (_label, properties, reason) => {
    const key = Object.keys(properties)[0]!;
    expect(() => toolArguments({ type: "object", properties, required: [key] })).toThrow(UnsatisfiableSchema);
    expect(() => toolArguments({ type: "object", properties, required: [key] })).toThrow(reason);
  });

  it("refuses what is not an object schema, and nesting past its depth", () => {
    expect(() => toolArguments("nope")).toThrow(/not an object schema/);
    expect(() => toolArguments({ type: "array" })).toThrow(/not an object schema/);
    expect(() => toolArguments({ oneOf: [] })).toThrow(/uses oneOf/);
    let deep: Record<string, unknown> = { type: "object", properties: {} };
    for (let i = 0; i < 6; i++) deep = { type: "object", properties: { d: deep }, required: ["d"] };
    expect(() => toolArguments(deep)).toThrow(/nested deeper than 4 objects/);
  });

  it("an optional property the gate cannot satisfy is simply left out", () => {
    expect(toolArguments({ type: "object", properties: { code: { type: "string", pattern: "^x$" } } }).args).toEqual({});
  });
});
