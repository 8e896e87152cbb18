// The cross-site guard for every route handler that changes something, and for the one GET that
// writes (the evidence download, which records an audit entry and runs a signed export). Cookies are
// SameSite=Lax, which does not stop a page on another port of the same host (same site, other
// origin) from posting with the operator's cookies, or an <img> from sending a GET with them.
// The rules themselves are pure (lib/http/cross-site.ts) so proxy.ts applies them to server actions.
import { NextResponse } from "next/server";
import { crossSiteRefusal, type BodyKind } from "@/lib/http/cross-site";
import { oidcConfig } from "./oidc-config";

export { crossSiteRefusal, type BodyKind, type Refusal } from "@/lib/http/cross-site";

type Handler<C> = (req: Request, ctx: C) => Promise<Response> | Response;

/**
 * Wraps a mutating route handler: a refused request is answered before the handler runs, so it
 * touches neither the session nor the store. JSON and upload routes answer JSON; form routes text.
 */
export function sameOriginOnly<C>(body: BodyKind, handler: Handler<C>): Handler<C> {
  return (req, ctx) => {
    const refusal = crossSiteRefusal(req, oidcConfig().appUrl, body);
    if (!refusal) return handler(req, ctx);
    if (body === "form")
      return new Response(refusal.error, { status: refusal.status, headers: { "content-type": "text/plain; charset=utf-8" } });
    return NextResponse.json({ ok: false, error: refusal.error }, { status: refusal.status });
  };
}
