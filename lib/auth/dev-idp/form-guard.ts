// Checks for the provider's own state-changing forms (consent, withdraw): the post must come from
// the provider's origin when the browser says where it came from, and carry a token that only a
// page this provider rendered for this interaction or session can know (HMAC with a per-data-dir
// key, bound to the interaction uid or the session uid, so a token leaks nothing and fits nowhere
// else).
import { createHmac, timingSafeEqual } from "node:crypto";
import type http from "node:http";
import type Provider from "oidc-provider";
import { devSecret } from "@/lib/auth/oidc-config";
import { providerInfo } from "./provider";

export function csrfFor(provider: Provider, purpose: string, binding: string): string {
  const info = providerInfo(provider);
  return createHmac("sha256", devSecret(`${info.keyName}-csrf`, info.env))
    .update(`${purpose}\u0000${binding}`)
    .digest("base64url");
}

export function csrfMatches(expected: string, given: string | null): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given ?? "");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Browsers send Origin (and Sec-Fetch-Site) on form posts; a foreign or same-site one is refused. */
export function isSameOriginForm(req: http.IncomingMessage, origin: string): boolean {
  const given = req.headers.origin;
  if (given !== undefined && given !== origin) return false;
  const site = req.headers["sec-fetch-site"];
  return site === undefined || site === "same-origin" || site === "none";
}
