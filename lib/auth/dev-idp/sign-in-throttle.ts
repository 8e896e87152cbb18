// Sign-in throttling at the bundled provider: wrong passwords are counted per login and per client
// address; each failure answers a little later than the last, and past the threshold every attempt
// (right password or not) gets 429 with Retry-After until the block ends. The counters live in
// process memory (rate-limiter-flexible's memory limiter): enough for the single development
// provider; a multi-instance deployment swaps `createSignInThrottle` for a store-backed limiter
// (lib/abuse/) without touching the sign-in handler, which only sees the SignInThrottle interface.
import { RateLimiterMemory, RateLimiterRes } from "rate-limiter-flexible";
import { type Env, readSetting } from "@/lib/config/schema";

export interface SignInThrottleSettings {
  maxFailuresPerLogin: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
  blockSeconds: number;
  /** Added delay per failure already counted, capped at 2 s: the "slow down" before the block. */
  delayStepMs: number;
}

export interface SignInThrottle {
  /** undefined: go ahead; a number: refused, retry after that many seconds. */
  retryAfter(login: string, address: string): Promise<number | undefined>;
  /** Counts one wrong password; resolves after the slow-down delay. */
  failed(login: string, address: string): Promise<void>;
  succeeded(login: string): Promise<void>;
}

const MAX_DELAY_MS = 2000;

export function signInThrottleSettings(env: Env = process.env): SignInThrottleSettings {
  return {
    maxFailuresPerLogin: readSetting(env, "DEV_IDP_SIGNIN_MAX_FAILURES"),
    maxFailuresPerAddress: readSetting(env, "DEV_IDP_SIGNIN_MAX_FAILURES_PER_ADDRESS"),
    windowSeconds: readSetting(env, "DEV_IDP_SIGNIN_WINDOW_SECONDS"),
    blockSeconds: readSetting(env, "DEV_IDP_SIGNIN_BLOCK_SECONDS"),
    // Its maximum in the settings table is MAX_DELAY_MS.
    delayStepMs: readSetting(env, "DEV_IDP_SIGNIN_DELAY_STEP_MS"),
  };
}

// Logins are compared case-insensitively and trimmed (as checkLogin does), and bounded so an
// oversized login cannot become an oversized key.
function loginKey(login: string): string {
  return `login:${login.trim().toLowerCase().slice(0, 200)}`;
}

export function createSignInThrottle(settings: SignInThrottleSettings): SignInThrottle {
  const perLogin = new RateLimiterMemory({
    points: settings.maxFailuresPerLogin,
    duration: settings.windowSeconds,
    blockDuration: settings.blockSeconds,
  });
  const perAddress = new RateLimiterMemory({
    points: settings.maxFailuresPerAddress,
    duration: settings.windowSeconds,
    blockDuration: settings.blockSeconds,
  });
  const over = (res: RateLimiterRes | null, points: number) =>
    res && res.consumedPoints >= points ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : undefined;
  // Reaching the threshold starts the block at once: later attempts are refused before they are
  // counted, so the limiter's own "block on the next consume" would never fire.
  const consume = async (limiter: RateLimiterMemory, points: number, key: string): Promise<number> => {
    let consumed: number;
    try {
      consumed = (await limiter.consume(key)).consumedPoints;
    } catch (res) {
      if (!(res instanceof RateLimiterRes)) throw res;
      consumed = res.consumedPoints;
    }
    if (consumed >= points) await limiter.block(key, settings.blockSeconds);
    return consumed;
  };
  return {
    async retryAfter(login, address) {
      const [a, b] = await Promise.all([perLogin.get(loginKey(login)), perAddress.get(`addr:${address}`)]);
      const waits = [over(a, settings.maxFailuresPerLogin), over(b, settings.maxFailuresPerAddress)].filter(
        (w): w is number => w !== undefined,
      );
      return waits.length ? Math.max(...waits) : undefined;
    },
    async failed(login, address) {
      const counts = await Promise.all([
        consume(perLogin, settings.maxFailuresPerLogin, loginKey(login)),
        consume(perAddress, settings.maxFailuresPerAddress, `addr:${address}`),
      ]);
      const delay = Math.min(MAX_DELAY_MS, settings.delayStepMs * Math.max(...counts));
      if (delay > 0) await new Promise((resolve) => setTimeout(resolve, delay));
    },
    async succeeded(login) {
      await perLogin.delete(loginKey(login));
    },
  };
}
