// Thin wrapper over node:util parseArgs that turns its exceptions into usage errors.
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./errors";
import { writeOut } from "./output";

export function parse<T extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: T, allowPositionals = false) {
  try {
    return parseArgs({ args: argv, options, allowPositionals, strict: true });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export function positiveInt(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`--${name} must be a whole number, not "${raw}"`);
  return n;
}

export function isoDate(name: string, raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  // Require a full date so "--from 5" is not read as a year.
  if (!/^\d{4}-\d{2}-\d{2}/.test(raw)) throw new UsageError(`--${name} must be an ISO 8601 date or time, not "${raw}"`);
  const d = new Date(raw);
  if (Number.isNaN(d.getTime())) throw new UsageError(`--${name} is not a valid date: "${raw}"`);
  return d;
}

export function emit(json: boolean, value: unknown, human: string): void {
  writeOut(json ? JSON.stringify(value) + "\n" : human + "\n");
}
