// Request rate limits per subject and per client address, counted in the store so every instance
// sharing it enforces one limit (rate-limiter-flexible's Drizzle store: one upsert per check, on
// PostgreSQL or PGlite alike). Once a key is over its limit this instance also blocks it in memory
// until the window ends, so a flood from one key costs no more store round trips.
import { createHash } from "node:crypto";
import { RateLimiterDrizzle, RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import type { Db } from "@/db/client";
import { rateLimits } from "@/db/schema";

export type LimitScope = "subject" | "address";
export type LimitVerdict = { ok: true } | { ok: false; scope: LimitScope; retryAfterSeconds: number; message: string };

export interface RequestLimiterOptions {
  /** What is limited, in the key and in the message ("MCP requests", "connect page requests"). */
  name: string;
  label: string;
  perSubject: number;
  perAddress: number;
  windowMs: number;
}

export interface RequestLimiter {
  consume(scope: LimitScope, id: string): Promise<LimitVerdict>;
}

// Keys are hashed: no subject or address is stored in clear, and key length is bounded.
const hashed = (id: string) => createHash("sha256").update(id).digest("base64url").slice(0, 32);

/** The store is opened lazily (the app server hands out a promise of it). */
export function requestLimiter(db: () => Promise<Db>, options: RequestLimiterOptions): RequestLimiter {
  let limiters: Promise<Record<LimitScope, RateLimiterDrizzle>> | undefined;
  const open = () => (limiters ??= db().then((store) => buildLimiters(store, options)));
  return {
    async consume(scope, id) {
      try {
        await (await open())[scope].consume(hashed(id));
        return { ok: true };
      } catch (err) {
        // The library rejects with a RateLimiterRes when the limit is reached; a store failure is
        // absorbed by the in-memory insurance limiter, so anything else is a bug and propagates.
        if (!(err instanceof RateLimiterRes)) throw err;
        const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        const per = scope === "subject" ? "this account" : "this network address";
        return { ok: false, scope, retryAfterSeconds, message: `rate limit exceeded: too many ${options.label} from ${per}; retry after ${retryAfterSeconds} s` };
      }
    },
  };
}

function buildLimiters(db: Db, options: RequestLimiterOptions): Record<LimitScope, RateLimiterDrizzle> {
  const make = (scope: LimitScope, points: number) =>
    new RateLimiterDrizzle({
      storeClient: db,
      schema: rateLimits,
      keyPrefix: `${options.name}:${scope}`,
      points,
      duration: Math.ceil(options.windowMs / 1000),
      // Refused once: refused in memory until the window ends (no store round trip meanwhile).
      inMemoryBlockOnConsumed: points + 1,
      // The store failing (down, read-only) does not turn every request into an error: this
      // instance counts in memory meanwhile, and the request meets the failure itself and says so.
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${options.name}:${scope}:insurance`, points, duration: Math.ceil(options.windowMs / 1000) }),
    });
  return { subject: make("subject", options.perSubject), address: make("address", options.perAddress) };
}
