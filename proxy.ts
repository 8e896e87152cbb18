// Runs before every page and route handler Next.js serves (the MCP endpoint and the development
// identity provider are answered earlier, by lib/server/app-routes.ts, with headers of their own).
// It gives each response a nonce-based Content-Security-Policy, and HSTS when APP_URL is HTTPS.
import { NextResponse, type NextRequest } from "next/server";
import { crossSiteRefusal } from "@/lib/http/cross-site";
import { contentSecurityPolicy, newNonce, strictTransportSecurity } from "@/lib/http/csp";

export function proxy(request: NextRequest) {
  const appUrl = process.env.APP_URL;
  // Server actions are POSTs that change things: the same cross-site rules as the route handlers,
  // answered here with a 403 before Next.js (whose own check would answer another origin with a 500).
  if (request.method === "POST" && request.headers.has("next-action")) {
    const appOrigin = originOf(appUrl?.trim() || `http://localhost:${process.env.PORT?.trim() || "3000"}`);
    const refusal = appOrigin ? crossSiteRefusal(request, appOrigin, "form") : { status: 403 as const, error: "request refused" };
    if (refusal)
      return new NextResponse(refusal.error, { status: refusal.status, headers: { "content-type": "text/plain; charset=utf-8" } });
  }
  const nonce = newNonce();
  const csp = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development", https: !!strictTransportSecurity(appUrl) });
  // Next.js takes the nonce for its own scripts from the request's CSP header.
  const headers = new Headers(request.headers);
  headers.set("content-security-policy", csp);
  headers.set("x-nonce", nonce);
  const response = NextResponse.next({ request: { headers } });
  response.headers.set("content-security-policy", csp);
  const hsts = strictTransportSecurity(appUrl);
  if (hsts) response.headers.set("strict-transport-security", hsts);
  return response;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

export const config = {
  // Static assets carry no script of ours and are cached: no per-request header work for them.
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)" }],
};
