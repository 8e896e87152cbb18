// The server validates accepted form content against the schema it sent, itself: never trusting
// the client or the SDK. Errors come back as { field, keyword } (Ajv's keyword), never a value.
import { createHash } from "node:crypto";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import type { FormSchema } from "./needs";

const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
addFormats(ajv, ["email", "uri", "date", "date-time"]);
const cache = new Map<string, ValidateFunction>();

export function schemaHash(schema: FormSchema): string {
  return createHash("sha256").update(JSON.stringify(schema)).digest("hex");
}

export function validateAgainstSchema(schema: FormSchema, content: unknown): Array<{ field: string; keyword: string }> {
  const key = schemaHash(schema);
  let validate = cache.get(key);
  if (!validate) {
    // Closed world: nothing the form did not ask for may come back.
    validate = ajv.compile({ ...schema, additionalProperties: false });
    cache.set(key, validate);
  }
  if (validate(content)) return [];
  const known = new Set(Object.keys(schema.properties));
  return (validate.errors ?? []).map((e) => {
    const fromPath = e.instancePath.split("/")[1];
    const missing = (e.params as { missingProperty?: string }).missingProperty;
    // A property the form did not ask for is named by the client: it could itself be a value, so
    // it is never recorded.
    const field = fromPath ?? missing;
    return {
      field: field && known.has(field) ? field : e.keyword === "additionalProperties" ? "(unexpected)" : "(form)",
      keyword: e.keyword,
    };
  });
}
