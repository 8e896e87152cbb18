// Request rate limits per subject and per client address, counted in the store so every instance
// sharing it enforces one limit (rate-limiter-flexible's Drizzle store, one upsert per check, on
// PostgreSQL or PGlite alike). Two things keep the hot path cheap:
// - leases: an instance takes points from the store in small batches (1/50 of the limit, at most
//   20) and spends them from memory, so a busy key costs one store write per batch instead of one
//   per request, and one client's many requests do not queue on one hot row. The price is
//   accuracy: across instances the limit can be overshot by at most (batch - 1) per instance and
//   window; with small limits (under 100) the batch is 1 and the limit is exact;
// - once a key is over its limit, this instance blocks it in memory until the window ends.
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

interface Lease {
  remaining: number;
  until: number;
}

const MAX_LEASES = 10_000;

export function leaseSize(points: number): number {
  return Math.max(1, Math.min(20, Math.floor(points / 50)));
}

/** The store is opened lazily (the app server hands out a promise of it). */
export function requestLimiter(db: () => Promise<Db>, options: RequestLimiterOptions): RequestLimiter {
  let limiters: Promise<Record<LimitScope, RateLimiterDrizzle>> | undefined;
  const open = () => (limiters ??= db().then((store) => buildLimiters(store, options)));
  const leases = new Map<string, Lease>();
  const keep = (key: string, lease: Lease) => {
    if (leases.size >= MAX_LEASES) for (const [k, l] of leases) if (l.until <= Date.now()) leases.delete(k);
    if (leases.size < MAX_LEASES) leases.set(key, lease);
  };
  return {
    async consume(scope, id) {
      const key = hashed(id);
      const leaseKey = `${scope}:${key}`;
      const now = Date.now();
      const lease = leases.get(leaseKey);
      if (lease && lease.remaining > 0 && lease.until > now) {
        lease.remaining -= 1;
        return { ok: true };
      }
      const points = scope === "subject" ? options.perSubject : options.perAddress;
      const batch = leaseSize(points);
      try {
        const res = await (await open())[scope].consume(key, batch);
        keep(leaseKey, { remaining: batch - 1, until: now + res.msBeforeNext });
        return { ok: true };
      } catch (err) {
        // The library rejects with a RateLimiterRes when the limit is reached; a store failure is
        // absorbed by the in-memory insurance limiter, so anything else is a bug and propagates.
        if (!(err instanceof RateLimiterRes)) throw err;
        // Part of the batch may still have been within the limit.
        const granted = err.consumedPoints > 0 ? points - (err.consumedPoints - batch) : 0;
        if (granted >= 1) {
          keep(leaseKey, { remaining: granted - 1, until: now + err.msBeforeNext });
          return { ok: true };
        }
        leases.delete(leaseKey);
        const retryAfterSeconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        const per = scope === "subject" ? "this account" : "this network address";
        return {
          ok: false,
          scope,
          retryAfterSeconds,
          message: `rate limit exceeded: too many ${options.label} from ${per}; retry after ${retryAfterSeconds} s`,
        };
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
      insuranceLimiter: new RateLimiterMemory({
        keyPrefix: `${options.name}:${scope}:insurance`,
        points,
        duration: Math.ceil(options.windowMs / 1000),
      }),
    });
  return { subject: make("subject", options.perSubject), address: make("address", options.perAddress) };
}
