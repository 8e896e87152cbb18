// Who a browser request is signed in as, read from the next-auth session cookie before Next.js
// handles the request, so the connect routes can be rate-limited per subject as well as per
// address. Only the cookie counts (no Authorization fallback); an unreadable cookie is no subject.
import type http from "node:http";
import { getToken } from "next-auth/jwt";

function cookieMap(header: string | undefined): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0) map.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return map;
}

export async function browserSubject(req: http.IncomingMessage, secret: string, secureCookie: boolean): Promise<string | null> {
  const cookies = cookieMap(req.headers.cookie);
  if (cookies.size === 0) return null;
  const token = await getToken({
    req: { headers: {}, cookies } as never,
    secret,
    secureCookie,
    logger: { error: () => {}, warn: () => {}, debug: () => {} } as never,
  });
  return typeof token?.sub === "string" ? token.sub : null;
}
