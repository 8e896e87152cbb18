// What a client says about itself (clientInfo name and version) is recorded as an observation only.
// It is bounded before it reaches the store: a 500,000-character name would otherwise overflow the
// index on it (a 500) or fill the console. Control and format characters are dropped so a name
// cannot reorder or hide text where it is shown.
export function observedText(value: unknown, max: number): string {
  const s = typeof value === "string" ? value : String(value ?? "");
  const clean = s.replace(/[\p{Cc}\p{Cf}]/gu, "");
  return [...clean].slice(0, max).join("") || "unknown";
}

export const CLIENT_NAME_MAX = 200;
export const CLIENT_VERSION_MAX = 64;
