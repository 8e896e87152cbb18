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
