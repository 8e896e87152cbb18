// Answers the gates give to a workflow's form: a valid one built from the schema alone (enums take
// their first choice, dates today), and canary versions that plant a marker in every field that
// can hold one. Fields limited to fixed choices cannot carry a canary when valid, so they carry one
// in an invalid answer instead (which must be refused without keeping the value anywhere).
type Props = Record<string, Record<string, unknown>>;

export function schemaProperties(schema: unknown): Props {
  const p = (schema as { properties?: unknown } | null)?.properties;
  return p && typeof p === "object" ? (p as Props) : {};
}

function validValue(def: Record<string, unknown>): unknown {
  if (Array.isArray(def.enum) && def.enum.length > 0) return def.enum[0];
  if (Array.isArray(def.oneOf) && def.oneOf.length > 0) return (def.oneOf[0] as { const: unknown }).const;
  if (def.type === "number" || def.type === "integer") return typeof def.minimum === "number" ? def.minimum : 1;
  if (def.type === "boolean") return true;
  if (def.type === "array") {
    const items = def.items as { enum?: unknown[]; anyOf?: Array<{ const: unknown }> } | undefined;
    return [items?.enum?.[0] ?? items?.anyOf?.[0]?.const].filter((x) => x !== undefined);
  }
  if (def.format === "date") return new Date().toISOString().slice(0, 10);
  if (def.format === "date-time") return new Date().toISOString();
  if (def.format === "email") return "gate@example.com";
  if (def.format === "uri") return "https://example.com/";
  return "gate check";
}

export function validAnswer(schema: unknown): Record<string, unknown> {
  return Object.fromEntries(Object.entries(schemaProperties(schema)).map(([k, def]) => [k, validValue(def)]));
}

/** A field that takes free text: it can hold a canary in a valid answer. */
export function holdsText(def: Record<string, unknown>): boolean {
  return def.type === "string" && !def.enum && !def.oneOf && !def.format;
}

/** A valid answer with a canary in every free-text field (respecting maxLength). */
export function canaryAnswer(schema: unknown, canary: string): { content: Record<string, unknown>; planted: string[] } {
  const content = validAnswer(schema);
  const planted: string[] = [];
  for (const [k, def] of Object.entries(schemaProperties(schema))) {
    if (!holdsText(def)) continue;
    const max = typeof def.maxLength === "number" ? def.maxLength : 200;
    content[k] = canary.slice(0, max);
    planted.push(k);
  }
  return { content, planted };
}

/** An invalid answer with the canary in every field (and one extra, undeclared field). */
export function invalidCanaryAnswer(schema: unknown, canary: string): Record<string, unknown> {
  const fields = Object.keys(schemaProperties(schema));
  return Object.fromEntries([...fields.map((k) => [k, canary]), [`gate_extra_${canary.slice(-6)}`, canary]]);
}
