// The 2025-11-25 form-mode subset: a flat object whose properties are string, number/integer,
// boolean, single-select enums (enum, oneOf const/title, legacy enumNames) or multi-select arrays
// of string enums. Anything else, including `pattern` (stripped by some clients), is refused.
import type { LintReason } from "./types";

const STRING_KEYS = new Set(["type", "title", "description", "minLength", "maxLength", "format", "default", "enum", "enumNames", "oneOf"]);
const NUMBER_KEYS = new Set(["type", "title", "description", "minimum", "maximum", "default"]);
const BOOLEAN_KEYS = new Set(["type", "title", "description", "default"]);
const ARRAY_KEYS = new Set(["type", "title", "description", "minItems", "maxItems", "items", "default"]);
const SCHEMA_KEYS = new Set(["$schema", "type", "properties", "required"]);
export const FORMATS = new Set(["email", "uri", "date", "date-time"]);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isNonNegInt = (v: unknown) => Number.isInteger(v) && (v as number) >= 0;

export function checkStructure(request: unknown): LintReason[] {
  const out: LintReason[] = [];
  if (!isObject(request))
    return [{ code: "invalid_request", field: null, detail: "form params must be an object with message and requestedSchema" }];
  if (typeof request.message !== "string" || !request.message.trim())
    out.push({ code: "invalid_request", field: null, detail: "message must be a non-empty string" });
  const schema = request.requestedSchema;
  if (!isObject(schema) || schema.type !== "object" || !isObject(schema.properties)) {
    return [...out, { code: "not_flat_object", field: null, detail: 'requestedSchema must be { type: "object", properties: {...} }' }];
  }
  for (const key of Object.keys(schema))
    if (!SCHEMA_KEYS.has(key)) out.push({ code: "unsupported_keyword", field: null, detail: `requestedSchema.${key} is not allowed` });
  const props = schema.properties;
  if (Object.keys(props).length === 0) out.push({ code: "invalid_request", field: null, detail: "requestedSchema has no properties" });
  if (schema.required !== undefined) {
    if (!Array.isArray(schema.required) || !schema.required.every((r) => typeof r === "string" && r in props)) {
      out.push({ code: "invalid_keyword_value", field: null, detail: "required must list property names" });
    }
  }
  for (const [name, def] of Object.entries(props)) out.push(...checkProperty(name, def));
  return out;
}

function unknownKeys(name: string, def: Record<string, unknown>, allowed: Set<string>): LintReason[] {
  return Object.keys(def)
    .filter((k) => !allowed.has(k))
    .map((k) => ({
      code: "unsupported_keyword" as const,
      field: name,
      detail: `"${k}" is not part of the form-mode subset${k === "pattern" ? " (clients may strip it; validate on the server instead)" : ""}`,
    }));
}

function checkProperty(name: string, def: unknown): LintReason[] {
  if (!isObject(def)) return [{ code: "unsupported_type", field: name, detail: "property must be a schema object" }];
  const bad = (detail: string): LintReason => ({ code: "invalid_keyword_value", field: name, detail });
  const out: LintReason[] = [];
  for (const k of ["title", "description"]) if (def[k] !== undefined && typeof def[k] !== "string") out.push(bad(`${k} must be a string`));
  switch (def.type) {
    case "string": {
      out.push(...unknownKeys(name, def, STRING_KEYS));
      if (def.format !== undefined && !FORMATS.has(String(def.format)))
        out.push({
          code: "unsupported_format",
          field: name,
          detail: `format "${String(def.format)}" is not one of email, uri, date, date-time`,
        });
      for (const k of ["minLength", "maxLength"])
        if (def[k] !== undefined && !isNonNegInt(def[k])) out.push(bad(`${k} must be a whole number`));
      if (def.enum !== undefined && (!Array.isArray(def.enum) || def.enum.length === 0 || !def.enum.every((v) => typeof v === "string")))
        out.push(bad("enum must list strings"));
      if (def.oneOf !== undefined && !isConstList(def.oneOf)) out.push(bad("oneOf must list { const, title } strings"));
      if (
        def.enumNames !== undefined &&
        (!Array.isArray(def.enumNames) || !Array.isArray(def.enum) || def.enumNames.length !== def.enum.length)
      )
        out.push(bad("enumNames must match enum"));
      if (def.default !== undefined && typeof def.default !== "string") out.push(bad("default must be a string"));
      break;
    }
    case "number":
    case "integer":
      out.push(...unknownKeys(name, def, NUMBER_KEYS));
      for (const k of ["minimum", "maximum", "default"])
        if (def[k] !== undefined && typeof def[k] !== "number") out.push(bad(`${k} must be a number`));
      break;
    case "boolean":
      out.push(...unknownKeys(name, def, BOOLEAN_KEYS));
      if (def.default !== undefined && typeof def.default !== "boolean") out.push(bad("default must be a boolean"));
      break;
    case "array": {
      out.push(...unknownKeys(name, def, ARRAY_KEYS));
      const items = def.items;
      const enumItems =
        isObject(items) &&
        items.type === "string" &&
        Array.isArray(items.enum) &&
        items.enum.every((v) => typeof v === "string") &&
        Object.keys(items).every((k) => k === "type" || k === "enum");
      const titledItems = isObject(items) && isConstList(items.anyOf) && Object.keys(items).every((k) => k === "anyOf" || k === "type");
      if (!enumItems && !titledItems)
        out.push({
          code: "unsupported_type",
          field: name,
          detail: "arrays are multi-select only: items must be a string enum or anyOf { const, title }",
        });
      for (const k of ["minItems", "maxItems"])
        if (def[k] !== undefined && !isNonNegInt(def[k])) out.push(bad(`${k} must be a whole number`));
      if (def.default !== undefined && !(Array.isArray(def.default) && def.default.every((v) => typeof v === "string")))
        out.push(bad("default must list strings"));
      break;
    }
    case "object":
      out.push({ code: "not_flat_object", field: name, detail: "nested objects are not allowed; the form must be flat" });
      break;
    default:
      out.push({ code: "unsupported_type", field: name, detail: `type ${JSON.stringify(def.type)} is not a form-mode primitive` });
  }
  return out;
}

function isConstList(v: unknown): boolean {
  return (
    Array.isArray(v) &&
    v.length > 0 &&
    v.every(
      (o) =>
        isObject(o) &&
        typeof o.const === "string" &&
        (o.title === undefined || typeof o.title === "string") &&
        Object.keys(o).every((k) => k === "const" || k === "title"),
    )
  );
}

/** A property a person can type anything into (as opposed to choosing from fixed options). */
export function isFreeText(def: unknown): boolean {
  if (!isObject(def) || def.type !== "string") return false;
  if (def.enum !== undefined || def.oneOf !== undefined) return false;
  // A date cannot carry a secret; an email, a URI or plain text can.
  return def.format !== "date" && def.format !== "date-time";
}
