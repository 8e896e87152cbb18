import { z } from "zod";

// Reading values that came from a URL. Two classes of bug live here: indexing a plain object with
// a user-chosen key ("__proto__", "constructor", "toString" reach Object.prototype and rendered as
// a React child crash the page), and a repeated parameter arriving as an array. Every lookup of a
// text table by a query value goes through ownValue(); every single-valued parameter through one().
export function one(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** table[key] only when key is the table's own property; never a prototype member. */
export function ownValue<T>(table: Readonly<Record<string, T>>, key: unknown): T | undefined {
  return typeof key === "string" && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** A non-negative whole number that fits a JavaScript number exactly, else undefined. */
export function safeWholeNumber(value: string | undefined, max = Number.MAX_SAFE_INTEGER): number | undefined {
  if (value === undefined || !/^\d{1,16}$/.test(value)) return undefined;
  const n = Number(value);
  return Number.isSafeInteger(n) && n <= max ? n : undefined;
}

// PostgreSQL text cannot hold NUL (the query fails with a server error), and no name, id or client
// string this product stores contains a control character; so free text from a URL that is compared
// with a column is refused outright rather than passed through (a filter that matches nothing is
// the honest answer, an error page is not).
const CONTROL = /\p{Cc}/u; // C0 controls, DEL and C1 controls

/** Free text from a URL for comparing with a stored column: bounded, no control characters. */
export function queryText(value: string | undefined, max = 200): string | undefined {
  if (value === undefined || value === "" || value.length > max || CONTROL.test(value)) return undefined;
  return value;
}

/** True when text holds no control character (used by every free-text field that is stored). */
export const hasNoControlCharacters = (v: string): boolean => !CONTROL.test(v);
export const NO_CONTROL_MESSAGE = "control characters are not allowed";

/** The same rule for zod-parsed query objects. */
export const queryTextSchema = (max = 200) => z.string().max(max).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE);
