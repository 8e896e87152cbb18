// The one configuration schema: every setting in settings.ts as one zod object over the
// environment, with the cross-setting production rules as its refinement. parseConfig() is pure
// (give it any env map; tests do), so nothing is cached here: a view reads its own variables with
// readSetting() each time it is asked, which costs a map lookup and a small parse.
import { z } from "zod";
import { ConfigError, type Env, problemLine as lineFor, rawSetting, readFrom, shownValue as shownFor } from "@/db/config-settings";
import { productionRules } from "./production-rules";
import { RETIRED, SETTINGS, type SettingName, type SettingSpec, type SettingValue } from "./settings";

export type { Env };

export type Config = { [N in SettingName]: SettingValue<N> };

export interface ConfigProblem {
  variable: string;
  /** One line: the variable, its value unless secret, and what is wrong. */
  message: string;
}

const NAMES = Object.keys(SETTINGS) as SettingName[];

const spec = (name: string) => (SETTINGS as Record<string, SettingSpec<unknown>>)[name];
const rawOf = (env: Env, name: string) => rawSetting(env, name, spec(name));

/** The value as it may be shown: secrets never, a connection string's password masked. */
export function shownValue(name: string, raw: string): string {
  return shownFor(spec(name), raw);
}

export function problemLine(name: string, raw: string | undefined, what: string): string {
  return lineFor(name, spec(name), raw, what);
}

const shape = Object.fromEntries(
  NAMES.map((name) => {
    const spec = SETTINGS[name] as SettingSpec<unknown>;
    return [name, spec.default === undefined ? spec.kind.optional() : spec.kind.optional().transform((v) => v ?? spec.default)];
  }),
) as unknown as { [N in SettingName]: z.ZodType<SettingValue<N>, string | undefined> };

/** The schema itself: settings.ts's kinds, then the rules that span several settings. */
export const configSchema = z.object(shape).superRefine(
  (config, ctx) => {
    for (const p of productionRules(config as Config))
      ctx.addIssue({ code: "custom", path: [p.variable], message: p.message, params: { rule: true } });
  },
  // Also when a value is bad, so one run lists every problem (a bad value still counts as set).
  { when: () => true },
);

/** Reads one setting: its default when unset, its typed value, or a ConfigError naming it. */
export function readSetting<N extends SettingName>(env: Env, name: N): SettingValue<N> {
  return readFrom(SETTINGS[name] as SettingSpec<unknown>, env, name) as SettingValue<N>;
}

/** Parses and checks the whole configuration: every problem, not just the first. */
export function parseConfig(env: Env): { config: Config | undefined; problems: ConfigProblem[] } {
  const input = Object.fromEntries(NAMES.map((name) => [name, rawOf(env, name)]));
  const problems: ConfigProblem[] = Object.entries(RETIRED)
    .filter(([name]) => rawOf(env, name) !== undefined)
    .map(([name, what]) => ({ variable: name, message: `${name} ${what}` }));
  const parsed = configSchema.safeParse(input);
  if (parsed.success) return { config: problems.length ? undefined : (parsed.data as Config), problems };
  for (const issue of parsed.error.issues) {
    const variable = String(issue.path[0] ?? "configuration");
    // A rule's message already names its variables; a kind's message is about one value.
    const rule = issue.code === "custom" && (issue.params as { rule?: boolean } | undefined)?.rule === true;
    const message = rule ? issue.message : problemLine(variable, input[variable], issue.message);
    problems.push({ variable, message });
  }
  return { config: undefined, problems };
}

/** The configuration, or a ConfigError whose one line names the first problem (and counts the rest). */
export function loadConfig(env: Env): Config {
  const { config, problems } = parseConfig(env);
  if (config) return config;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s): run ctl config check)` : "";
  throw new ConfigError(`${problems[0]!.message}${more}`);
}

/** A retired setting that is set: an error naming it, for the views that used to read it. */
export function refuseRetired(env: Env, name: keyof typeof RETIRED): void {
  if (rawOf(env, name) !== undefined) throw new ConfigError(`${name} ${RETIRED[name]}`);
}
