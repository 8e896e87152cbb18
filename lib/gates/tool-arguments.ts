// Arguments for an upstream tool, generated from its inputSchema alone: every required property
// with a minimal valid value (recursively for nested objects), optional ones left out except
// free-text strings, which carry the privacy gate's canary when one is given. A schema the gate
// cannot satisfy without guessing (a pattern, a $ref, a combinator, contradictory bounds, a
// required property it does not describe) is refused with the reason: the gates then say "could
// not run" instead of calling the tool with arguments it would refuse anyway.
type Schema = Record<string, unknown>;

export class UnsatisfiableSchema extends Error {
  override name = "UnsatisfiableSchema";
}

export interface ToolArguments {
  args: Record<string, unknown>;
  /** Argument paths that carry the canary (empty without one). */
  planted: string[];
}

const COMBINATORS = ["$ref", "anyOf", "oneOf", "allOf", "not", "if", "const"] as const;
const MAX_DEPTH = 4;

const isSchema = (x: unknown): x is Schema => typeof x === "object" && x !== null && !Array.isArray(x);

function freeText(def: Schema): boolean {
  return def.type === "string" && def.enum === undefined && def.format === undefined && def.pattern === undefined;
}

function numberValue(def: Schema, path: string): number {
  const min = typeof def.minimum === "number" ? def.minimum : typeof def.exclusiveMinimum === "number" ? def.exclusiveMinimum + 1 : 1;
  const value = def.type === "integer" ? Math.ceil(min) : min;
  const max =
    typeof def.maximum === "number" ? def.maximum : typeof def.exclusiveMaximum === "number" ? def.exclusiveMaximum - 1 : Infinity;
  if (value > max) throw new UnsatisfiableSchema(`${path}: no ${String(def.type)} fits between its bounds`);
  return value;
}

function stringValue(def: Schema, path: string, canary: string | undefined, planted: string[]): string {
  if (def.pattern !== undefined)
    throw new UnsatisfiableSchema(`${path}: a string matching pattern ${String(def.pattern)} cannot be made up`);
  const min = typeof def.minLength === "number" ? def.minLength : 0;
  const max = typeof def.maxLength === "number" ? def.maxLength : Infinity;
  if (min > max) throw new UnsatisfiableSchema(`${path}: minLength is above maxLength`);
  if (def.format === "date") return new Date().toISOString().slice(0, 10);
  if (def.format === "date-time") return new Date().toISOString();
  if (def.format === "email") return "gate@example.com";
  if (def.format === "uri" || def.format === "url") return "https://example.com/";
  if (def.format !== undefined) throw new UnsatisfiableSchema(`${path}: string format ${String(def.format)} is not one the gate can fill`);
  if (canary && canary.length >= min && canary.length <= max) {
    planted.push(path);
    return canary;
  }
  const base = "gate check";
  return base.length >= min && base.length <= max ? base : "g".repeat(Math.max(min, 1) <= max ? Math.max(min, 1) : min);
}

function valueFor(def: unknown, path: string, depth: number, canary: string | undefined, planted: string[]): unknown {
  if (!isSchema(def)) throw new UnsatisfiableSchema(`${path}: its schema is not an object`);
  const combinator = COMBINATORS.find((k) => def[k] !== undefined);
  if (combinator) throw new UnsatisfiableSchema(`${path}: uses ${combinator}, which the gate does not resolve`);
  if (Array.isArray(def.enum)) {
    if (def.enum.length === 0) throw new UnsatisfiableSchema(`${path}: enum has no choices`);
    return def.enum[0];
  }
  switch (def.type) {
    case "string":
      return stringValue(def, path, canary, planted);
    case "number":
    case "integer":
      return numberValue(def, path);
    case "boolean":
      return true;
    case "null":
      return null;
    case "array": {
      const minItems = typeof def.minItems === "number" ? def.minItems : 0;
      if (minItems === 0) return [];
      if (minItems > 10) throw new UnsatisfiableSchema(`${path}: needs ${minItems} items`);
      return Array.from({ length: minItems }, (_, i) => valueFor(def.items, `${path}[${i}]`, depth + 1, undefined, planted));
    }
    case "object":
      if (depth >= MAX_DEPTH) throw new UnsatisfiableSchema(`${path}: nested deeper than ${MAX_DEPTH} objects`);
      return objectFor(def, path, depth + 1, canary, planted);
    default:
      throw new UnsatisfiableSchema(`${path}: type ${JSON.stringify(def.type ?? null)} is not one the gate can fill`);
  }
}

function objectFor(schema: Schema, path: string, depth: number, canary: string | undefined, planted: string[]): Record<string, unknown> {
  const props = isSchema(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required.filter((k): k is string => typeof k === "string") : [];
  const out: Record<string, unknown> = {};
  // Keys come from the upstream: "__proto__" or "constructor" must be own data properties, never
  // the prototype (an assignment would drop the argument, a lookup would find Object's own).
  const put = (key: string, value: unknown) =>
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  for (const key of required) {
    if (!Object.hasOwn(props, key)) throw new UnsatisfiableSchema(`${path}.${key}: required but not described`);
    put(key, valueFor(props[key], `${path}.${key}`, depth, canary, planted));
  }
  // Optional free-text properties carry the canary too: more places for a value to leak from.
  if (canary)
    for (const [key, def] of Object.entries(props))
      if (!Object.hasOwn(out, key) && isSchema(def) && freeText(def)) {
        const max = typeof def.maxLength === "number" ? def.maxLength : Infinity;
        if (canary.length <= max) {
          put(key, canary);
          planted.push(`${path}.${key}`);
        }
      }
  return out;
}

/** Minimal valid arguments for the tool (with the canary in free-text ones when given); throws UnsatisfiableSchema. */
export function toolArguments(inputSchema: unknown, canary?: string): ToolArguments {
  if (!isSchema(inputSchema) || (inputSchema.type !== undefined && inputSchema.type !== "object"))
    throw new UnsatisfiableSchema("the inputSchema is not an object schema");
  const combinator = COMBINATORS.find((k) => inputSchema[k] !== undefined);
  if (combinator) throw new UnsatisfiableSchema(`the inputSchema uses ${combinator}, which the gate does not resolve`);
  const planted: string[] = [];
  const args = objectFor(inputSchema, "arguments", 0, canary, planted);
  return { args, planted: planted.map((p) => p.replace(/^arguments\./, "")) };
}
