// Whether a request may change something, judged from what the browser says about where it comes
// from. Pure and free of Node.js imports: route handlers (lib/auth/request-guard.ts) and proxy.ts
// (server actions) use the same rules.
//  - an Origin header, when present, must be exactly this app's origin;
//  - otherwise Sec-Fetch-Site, when present, must say same-origin ("same-site" is refused: another
//    port of the same host is another origin); a download may also be a typed URL ("none");
//  - a request with neither (not a browser: curl, a script) is accepted on JSON routes and
//    downloads only, since a browser cannot send a cross-origin POST without announcing its Origin;
//  - JSON routes require Content-Type application/json, which a form or `no-cors` fetch cannot send.
export type BodyKind = "json" | "form" | "upload" | "download";

export interface Refusal {
  status: 403 | 415;
  error: string;
}

function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Undefined when the request may proceed; otherwise why not. The caller answers. */
export function crossSiteRefusal(req: Request, appOrigin: string, body: BodyKind): Refusal | undefined {
  const origin = req.headers.get("origin");
  const site = req.headers.get("sec-fetch-site");
  if (origin !== null && origin !== "null") {
    if (origin !== appOrigin) return { status: 403, error: "cross-origin request refused" };
  } else if (site !== null) {
    if (site !== "same-origin" && !(body === "download" && site === "none")) return { status: 403, error: "cross-site request refused" };
  } else if (origin === "null" || (body !== "json" && body !== "download")) {
    return { status: 403, error: "request refused: it does not show that it comes from this site" };
  }
  if (body === "json" && mediaType(req) !== "application/json") return { status: 415, error: "send the body as application/json" };
  return undefined;
}
