// The store's own settings, as entries of the one configuration table (lib/config/settings.ts
// spreads them in). They live here because db/ is the bottom layer and may not import lib/: the
// kinds, the error class and the one-line message format are therefore defined here and re-used by
// lib/config, so a bad DATABASE_POOL_MAX reads exactly like any other bad setting.
import { z } from "zod";

/** A plain environment map (Next types NODE_ENV as required on ProcessEnv, which partial test maps lack). */
export type Env = Record<string, string | undefined>;

/** A schema that reads one variable's (trimmed, non-empty) text into its typed value. */
export type Kind<T> = z.ZodType<T, string>;

export interface SettingSpec<T> {
  kind: Kind<T>;
  /** The value when the variable is unset or blank; undefined: the setting is optional. */
  default: T | undefined;
  /** The default as the README writes it (for settings whose default is derived or generated). */
  defaultText?: string;
  /** Never printed: `ctl config check` and error lines show that it is set, not its value. */
  secret?: boolean;
  /** A connection string whose password alone is masked. */
  maskPassword?: boolean;
  /** Read as written, not trimmed: a value whose stray whitespace means a mistake, not padding. */
  exact?: boolean;
}

/** A configuration problem: one line naming the variable and what is wrong, never a secret's value. */
export class ConfigError extends Error {
  override name = "ConfigError";
}

// D keeps whether a default exists in the type, so an optional setting reads as `T | undefined`.
// T comes from the kind alone (NoInfer), so a default of "development" does not widen an enum to string.
export function setting<T>(spec: Omit<SettingSpec<T>, "default"> & { default: NoInfer<T> }): SettingSpec<T> & { default: T } {
  return spec;
}

/** A setting without a default: it reads as `T | undefined`. */
export function optionalSetting<T>(spec: Omit<SettingSpec<T>, "default">): SettingSpec<T> & { default: undefined } {
  return { ...spec, default: undefined };
}

/** A whole number in [min, max], written in digits only (no sign, exponent, hex or fraction). */
export function wholeNumber(min: number, max: number, unit = ""): Kind<number> {
  const what = `must be a whole number${unit ? ` of ${unit}` : ""} from ${min} to ${max}`;
  return z
    .string()
    .regex(/^[0-9]+$/, { error: what })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: what }).max(max, { error: what }));
}

/** Free text of bounded length (a path, a claim name, a client id). */
export function text(options: { max?: number; pattern?: RegExp; describe?: string } = {}): Kind<string> {
  const max = options.max ?? 2000;
  const schema = z.string().max(max, { error: `must be at most ${max} characters` });
  return options.pattern ? schema.regex(options.pattern, { error: options.describe ?? `must match ${options.pattern}` }) : schema;
}

/** A connection string such as postgres://user:password@host:5432/db. */
function postgresUrl(): Kind<string> {
  return z.string().refine(
    (v) => {
      try {
        return ["postgres:", "postgresql:"].includes(new URL(v).protocol);
      } catch {
        return false;
      }
    },
    { error: "must be a postgres:// connection string" },
  );
}

export const DB_SETTINGS = {
  DATABASE_URL: optionalSetting({ kind: postgresUrl(), defaultText: "unset", maskPassword: true }),
  DATABASE_POOL_MAX: setting({ kind: wholeNumber(1, 1000, "connections"), default: 10 }),
  DATA_DIR: setting({ kind: text(), default: ".data" }),
};

/**
 * The text of a variable: unset and blank are the same (a blank line in an env file must not
 * become the value ""), and surrounding whitespace is dropped (a secret mounted from a file often
 * ends in a newline) unless the setting is `exact`.
 */
export function rawSetting(env: Env, name: string, spec?: SettingSpec<unknown>): string | undefined {
  const v = Object.hasOwn(env, name) ? env[name] : undefined;
  if (v === undefined || v.trim() === "") return undefined;
  return spec?.exact ? v : v.trim();
}

/** The value as it may be shown: secrets never, a connection string's password masked. */
export function shownValue(spec: SettingSpec<unknown> | undefined, raw: string): string {
  if (spec?.secret) return "(set)";
  if (spec?.maskPassword) {
    try {
      const u = new URL(raw);
      if (u.password) u.password = "***";
      return u.toString();
    } catch {
      return "(unparseable)";
    }
  }
  return JSON.stringify(raw.length > 60 ? `${raw.slice(0, 60)}...` : raw);
}

/** "NAME must be ... (got "value")"; a secret's value, or an unset one, is not shown. */
export function problemLine(name: string, spec: SettingSpec<unknown> | undefined, raw: string | undefined, what: string): string {
  if (raw === undefined || spec?.secret) return `${name} ${what}`;
  return `${name} ${what} (got ${shownValue(spec, raw)})`;
}

/** Reads one setting of a table: its default when unset, its typed value, or a ConfigError naming it. */
export function readFrom<T>(spec: SettingSpec<T>, env: Env, name: string): T | undefined {
  const raw = rawSetting(env, name, spec as SettingSpec<unknown>);
  if (raw === undefined) return spec.default;
  const parsed = spec.kind.safeParse(raw);
  if (!parsed.success)
    throw new ConfigError(problemLine(name, spec as SettingSpec<unknown>, raw, parsed.error.issues[0]?.message ?? "is not valid"));
  return parsed.data;
}
