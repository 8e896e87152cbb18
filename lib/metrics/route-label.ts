// The `route` label of the HTTP metrics and the name of a request's span: a template from a fixed
// list, never the path itself, so record ids, provider names and query strings cannot become label
// values (bounded cardinality, nothing personal in a time series).
const EXACT = new Set([
  "/",
  "/healthz",
  "/readyz",
  "/api/metrics",
  "/sign-in",
  "/signed-out",
  "/connect/callback",
  "/connect/done",
  "/connect/problem",
  "/console",
  "/console/approvals",
  "/console/audit",
  "/console/clients",
  "/console/flows",
  "/console/operators",
  "/console/origins",
  "/console/records",
  "/api/console/audit",
  "/api/console/audit/export",
  "/api/console/audit/verify",
  "/api/console/kill-switch",
]);

const TEMPLATES: [RegExp, string][] = [
  [/^\/connect\/[^/]+\/decision$/, "/connect/[id]/decision"],
  [/^\/connect\/[^/]+$/, "/connect/[id]"],
  [/^\/setup\/[^/]+\/start$/, "/setup/[provider]/start"],
  [/^\/setup\/[^/]+$/, "/setup/[provider]"],
  [/^\/console\/records\/[^/]+$/, "/console/records/[id]"],
  [/^\/api\/auth\//, "/api/auth/*"],
  [/^\/\.well-known\/oauth-protected-resource(\/|$)/, "/.well-known/oauth-protected-resource"],
  [/^\/_next\//, "/_next/*"],
];

/** The bounded route template of a request path (`mcpPath` is the configured MCP endpoint). */
export function routeLabel(path: string, mcpPath = "/api/mcp"): string {
  if (path === mcpPath) return "/api/mcp";
  if (EXACT.has(path)) return path;
  // The bundled identity providers: one label each, whatever their many paths.
  if (path === "/oidc" || path.startsWith("/oidc/")) return "/oidc/*";
  if (path === "/dev/downstream" || path.startsWith("/dev/downstream/")) return "/dev/downstream/*";
  for (const [pattern, label] of TEMPLATES) if (pattern.test(path)) return label;
  return "other";
}

const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export function methodLabel(method: string | undefined): string {
  return method && HTTP_METHODS.has(method) ? method : "other";
}

/** 2xx, 3xx, 4xx, 5xx: the outcome of a request, coarse enough to stay bounded. */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : "other";
}
