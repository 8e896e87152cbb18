// The one cross-site guard for every route handler that changes something. Cookies are
// SameSite=Lax, which does not stop a page on another port of the same host (same site, other
// origin) from posting with the operator's cookies, nor a `text/plain` "simple request" that needs
// no preflight. So a mutating request must prove it comes from this app's own origin:
//  - an Origin header, when present, must be exactly APP_URL's origin;
//  - otherwise Sec-Fetch-Site, when present, must say same-origin ("same-site" is refused);
//  - a request with neither (not a browser: curl, a script) is accepted only on JSON routes,
//    since a browser cannot send one cross-origin without announcing its Origin;
//  - JSON routes require Content-Type application/json, which a form or `no-cors` fetch cannot send.
import { NextResponse } from "next/server";
import { oidcConfig } from "./oidc-config";

export type BodyKind = "json" | "form" | "upload";

export interface Refusal {
  status: 403 | 415;
  error: string;
}

function mediaType(req: Request): string {
  return (req.headers.get("content-type") ?? "").split(";")[0]!.trim().toLowerCase();
}

/** Undefined when the request may proceed; otherwise why not. Pure: the caller answers. */
export function crossSiteRefusal(req: Request, appOrigin: string, body: BodyKind): Refusal | undefined {
  const origin = req.headers.get("origin");
  const site = req.headers.get("sec-fetch-site");
  if (origin !== null && origin !== "null") {
    if (origin !== appOrigin) return { status: 403, error: "cross-origin request refused" };
  } else if (site !== null) {
    if (site !== "same-origin") return { status: 403, error: "cross-site request refused" };
  } else if (origin === "null" || body !== "json") {
    return { status: 403, error: "request refused: it does not show that it comes from this site" };
  }
  if (body === "json" && mediaType(req) !== "application/json") return { status: 415, error: "send the body as application/json" };
  return undefined;
}

type Handler<C> = (req: Request, ctx: C) => Promise<Response> | Response;

/**
 * Wraps a mutating route handler: a refused request is answered before the handler runs, so it
 * touches neither the session nor the store. JSON and upload routes answer JSON; form routes text.
 */
export function sameOriginOnly<C>(body: BodyKind, handler: Handler<C>): Handler<C> {
  return (req, ctx) => {
    const refusal = crossSiteRefusal(req, oidcConfig().appUrl, body);
    if (!refusal) return handler(req, ctx);
    if (body === "form") return new Response(refusal.error, { status: refusal.status, headers: { "content-type": "text/plain; charset=utf-8" } });
    return NextResponse.json({ ok: false, error: refusal.error }, { status: refusal.status });
  };
}
