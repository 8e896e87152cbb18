// The Streamable HTTP transport (2025-11-25) requires servers to validate Origin: a browser page on
// another origin (or a DNS-rebinding page on "our" host name) must not drive /api/mcp with a token
// it got hold of. Non-browser clients send no Origin and are unaffected. Allowed: exactly APP_URL's
// origin and the configured MCP_ALLOWED_ORIGINS; "null", another port or scheme of the same host,
// a trailing slash or a path are all refused, because only exact serialized origins compare equal.
export function allowedOriginSet(appUrl: string, configured: readonly string[]): ReadonlySet<string> {
  return new Set([new URL(appUrl).origin, ...configured]);
}

/** True when the request carries no Origin, or exactly one allowed origin. */
export function originAllowed(origin: string | string[] | undefined, allowed: ReadonlySet<string>): boolean {
  if (origin === undefined) return true;
  return typeof origin === "string" && allowed.has(origin);
}
