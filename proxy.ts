// Runs before every page and route handler Next.js serves (the MCP endpoint and the development
// identity provider are answered earlier, by lib/server/app-routes.ts, with headers of their own).
// It gives each response a nonce-based Content-Security-Policy, and HSTS when APP_URL is HTTPS.
import { NextResponse, type NextRequest } from "next/server";
import { contentSecurityPolicy, newNonce, strictTransportSecurity } from "@/lib/http/csp";

export function proxy(request: NextRequest) {
  const nonce = newNonce();
  const appUrl = process.env.APP_URL;
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

export const config = {
  // Static assets carry no script of ours and are cached: no per-request header work for them.
  matcher: [{ source: "/((?!_next/static|_next/image|favicon.ico).*)" }],
};
