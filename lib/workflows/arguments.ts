// A workflow's form fields are also its tool's optional arguments: a person whose client cannot
// show forms (or who already knows the answer) can give them in the call. The arguments are checked
// by the same schema, linter and domain rules as a form answer (lib/elicitation/from-arguments.ts),
// so a value a form would refuse is refused as an argument too.
import type { FieldNeed } from "@/lib/elicitation/needs";
import type { WorkflowDefinition } from "./types";

export interface ArgumentsSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  additionalProperties: false;
}

/** The input of a tool that takes no arguments at all (describe_capabilities). */
export const NO_ARGUMENTS: ArgumentsSchema = { type: "object", properties: {}, additionalProperties: false };

function fieldNeeds(wf: WorkflowDefinition): FieldNeed[] {
  return wf.needs.filter((n): n is FieldNeed => n.kind === "field");
}

/**
 * What the tool lists as its input: every form field of its field needs, each optional, and
 * nothing else (`additionalProperties: false`, for every tool, the ones without fields included):
 * an argument the tool does not declare, say `password` or `token` sent to a tool that takes none,
 * is refused by the SDK's input validation before the tool runs, the same way in both revisions.
 * Without `default`s: a schema library would fill them in, and a filled-in value is not one the
 * person gave.
 */
export function argumentsSchema(wf: WorkflowDefinition): ArgumentsSchema {
  const properties: Record<string, Record<string, unknown>> = { ...wf.extraArguments };
  for (const need of fieldNeeds(wf)) {
    for (const [name, prop] of Object.entries(need.schema.properties)) {
      const { default: _default, ...rest } = prop;
      properties[name] = rest;
    }
  }
  return { type: "object", properties, additionalProperties: false };
}

/**
 * The values this call gave for a need's fields, or undefined when it gave none (then the form is
 * asked). Keys the need does not know are kept, so validation refuses them instead of dropping them.
 */
export function argumentsFor(need: FieldNeed, args: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!args) return undefined;
  const keys = Object.keys(args);
  if (!keys.some((k) => Object.hasOwn(need.schema.properties, k))) return undefined;
  return Object.fromEntries(keys.map((k) => [k, args[k]]));
}

function describe(name: string, prop: Record<string, unknown>): string {
  const options = Array.isArray(prop.enum)
    ? (prop.enum as unknown[]).map(String)
    : Array.isArray(prop.oneOf)
      ? (prop.oneOf as Array<{ const?: unknown }>).map((o) => String(o.const))
      : undefined;
  if (options) return `${name} (${options.join(" or ")})`;
  if (prop.format === "date") return `${name} (YYYY-MM-DD)`;
  return name;
}

/** Plain words: how to give this need's values as arguments instead of in a form. */
export function argumentsHint(toolName: string, need: FieldNeed): string {
  const required = new Set(need.schema.required ?? []);
  const entries = Object.entries(need.schema.properties);
  const must = entries.filter(([k]) => required.has(k)).map(([k, p]) => describe(k, p));
  const may = entries.filter(([k]) => !required.has(k)).map(([k, p]) => describe(k, p));
  return `call ${toolName} again with the arguments ${must.join(", ")}${may.length ? `; optionally ${may.join(", ")}` : ""}`;
}
