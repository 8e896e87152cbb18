// What a record keeps of the client's declared capabilities (lib/elicitation/capabilities.ts):
// the `elicitation` object exactly as declared, or null; bounded so junk cannot fill the store.
import { describe, expect, it } from "vitest";
import { DECLARED_ELICITATION_MAX_BYTES, declaredElicitation } from "@/lib/elicitation/capabilities";

describe("declaredElicitation", () => {
  it("keeps the object exactly: {} stays {}, distinct from { form: {} }", () => {
    expect(declaredElicitation({ elicitation: {} })).toEqual({});
    expect(declaredElicitation({ elicitation: { form: {} } })).toEqual({ form: {} });
    expect(declaredElicitation({ elicitation: { form: {}, url: {} } })).toEqual({ form: {}, url: {} });
  });

  it("is null when nothing (or not an object) was declared", () => {
    expect(declaredElicitation(undefined)).toBeNull();
    expect(declaredElicitation({})).toBeNull();
    expect(declaredElicitation({ sampling: {} })).toBeNull();
    for (const junk of [null, true, 7, "form", ["form"]]) expect(declaredElicitation({ elicitation: junk })).toBeNull();
  });

  it("keeps only the elicitation object, never the other capabilities", () => {
    expect(declaredElicitation({ elicitation: { url: {} }, roots: { listChanged: true }, extra: "x" })).toEqual({ url: {} });
  });

  it("keeps a declaration at the byte limit and drops one a byte over it (never cut)", () => {
    const at = (bytes: number) => ({ elicitation: { form: {}, pad: "x".repeat(bytes - JSON.stringify({ form: {}, pad: "" }).length) } });
    expect(JSON.stringify(at(DECLARED_ELICITATION_MAX_BYTES).elicitation)).toHaveLength(DECLARED_ELICITATION_MAX_BYTES);
    expect(declaredElicitation(at(DECLARED_ELICITATION_MAX_BYTES))).toEqual(at(DECLARED_ELICITATION_MAX_BYTES).elicitation);
    expect(declaredElicitation(at(DECLARED_ELICITATION_MAX_BYTES + 1))).toBeNull();
  });

  it("counts bytes, not characters: multi-byte padding over the limit is dropped", () => {
    const pad = "é".repeat(DECLARED_ELICITATION_MAX_BYTES / 2);
    // Under the limit in characters, over it in UTF-8 bytes.
    expect(JSON.stringify({ pad }).length).toBeLessThanOrEqual(DECLARED_ELICITATION_MAX_BYTES);
    expect(declaredElicitation({ elicitation: { pad } })).toBeNull();
  });

  it("a value that is not JSON (a cycle, a BigInt) is none, not a crash", () => {
    const cyclic: Record<string, unknown> = { form: {} };
    cyclic.self = cyclic;
    expect(declaredElicitation({ elicitation: cyclic })).toBeNull();
    expect(declaredElicitation({ elicitation: { form: 1n } })).toBeNull();
  });

  it("returns a copy: changing the client's object afterwards changes nothing stored", () => {
    const declared: Record<string, unknown> = { form: {} };
    const kept = declaredElicitation({ elicitation: declared });
    declared.url = {};
    expect(kept).toEqual({ form: {} });
  });
});
