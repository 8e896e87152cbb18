// Rate limits on the end-user connect routes (/connect/*, /setup/*), applied by the app server
// before Next.js renders anything: per client address, and per signed-in subject when there is
// one. Over the limit: 429, Retry-After and a plain page saying when to try again.
import type http from "node:http";
import { storeFailureOf } from "@/db/errors";
import { clientAddress } from "./client-address";
import { browserSubject } from "./browser-subject";
import type { LimitVerdict, RequestLimiter } from "./rate-limiter";

export const CONNECT_PREFIXES = ["/connect/", "/setup/"] as const;

export function isConnectPath(path: string): boolean {
  return CONNECT_PREFIXES.some((prefix) => path.startsWith(prefix));
}

export interface ConnectGuardOptions {
  limiter: RequestLimiter;
  trustProxy: boolean;
  sessionSecret: string;
  secureCookie: boolean;
}

function refusePage(res: http.ServerResponse, verdict: Extract<LimitVerdict, { ok: false }>): void {
  const minutes = Math.ceil(verdict.retryAfterSeconds / 60);
  const wait = verdict.retryAfterSeconds < 60 ? `${verdict.retryAfterSeconds} seconds` : `${minutes} minute${minutes === 1 ? "" : "s"}`;
  res.writeHead(429, {
    "content-type": "text/html; charset=utf-8",
    "retry-after": String(verdict.retryAfterSeconds),
    "cache-control": "no-store",
  });
  res.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Too many requests</title></head>` +
      `<body><main><h1>Too many requests</h1><p>Too many connect requests came from ${verdict.scope === "subject" ? "your account" : "your network address"} in a short time. ` +
      `Nothing was changed. Please try again in ${wait}.</p></main></body></html>`,
  );
}

/** Answers 429 and returns true when the request is over a limit; otherwise lets it through. */
export async function guardConnectRequest(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: ConnectGuardOptions,
): Promise<boolean> {
  try {
    return await checkLimits(req, res, options);
  } catch (err) {
    // The store is down: the page behind this check could not work either. Say so plainly.
    if (!storeFailureOf(err)) throw err;
    res
      .writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "5" })
      .end("The service is briefly unavailable. Nothing was changed; please try again in a moment.");
    return true;
  }
}

async function checkLimits(req: http.IncomingMessage, res: http.ServerResponse, options: ConnectGuardOptions): Promise<boolean> {
  const byAddress = await options.limiter.consume("address", clientAddress(req, options.trustProxy));
  if (!byAddress.ok) return (refusePage(res, byAddress), true);
  const subject = await browserSubject(req, options.sessionSecret, options.secureCookie);
  if (subject) {
    const bySubject = await options.limiter.consume("subject", subject);
    if (!bySubject.ok) return (refusePage(res, bySubject), true);
  }
  return false;
}
