// JSON.parse accepts any nesting, but everything after it (validators, the SDKs) walks values
// recursively: a 10 KB body of 5,000 nested arrays overflows the stack there (a 500). Checked
// iteratively on the parsed value, before anything else looks at it.
export const MAX_JSON_DEPTH = 64;

export function jsonDepthExceeds(value: unknown, max = MAX_JSON_DEPTH): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (v === null || typeof v !== "object") continue;
    if (depth > max) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v))
      if (child !== null && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}
