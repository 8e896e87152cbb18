// Audit details are value-free by construction: flat objects of short scalars whose keys describe
// names, keywords, counts and hashes. A key that announces a value (or a long free-text string)
// is refused before it can reach the chain, where it could never be removed again.
export class ValueLeakError extends Error {
  override name = "ValueLeakError";
}

const FORBIDDEN_KEY =
  /(^|_)(value|values|content|answer|answers|token|secret|password|passwd|credential|card|pan|cvv|api_?key|authorization|cookie|email|phone)($|_)/i;
const MAX_STRING = 200;
const MAX_KEYS = 32;

export function assertValueFree(detail: Record<string, unknown>): void {
  const keys = Object.keys(detail);
  if (keys.length > MAX_KEYS) throw new ValueLeakError(`audit detail has ${keys.length} keys (max ${MAX_KEYS})`);
  for (const key of keys) {
    if (FORBIDDEN_KEY.test(key)) throw new ValueLeakError(`audit detail key "${key}" names a value`);
    const v = detail[key];
    if (Array.isArray(v)) {
      if (v.length > 64) throw new ValueLeakError(`audit detail "${key}" lists too many items`);
      if (!v.every((item) => typeof item === "string" && item.length <= MAX_STRING)) {
        throw new ValueLeakError(`audit detail "${key}" may list short strings only`);
      }
      continue;
    }
    if (v === null || typeof v === "boolean") continue;
    if (typeof v === "number" && Number.isFinite(v)) continue;
    if (typeof v === "string" && v.length <= MAX_STRING) continue;
    throw new ValueLeakError(`audit detail "${key}" is not a short scalar`);
  }
}
