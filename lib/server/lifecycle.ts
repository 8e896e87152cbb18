// An instance's lifecycle for rolling restarts: on SIGTERM it starts draining. Readiness fails at
// once (the balancer stops sending new work), new MCP sessions and new connect flows are refused
// with a retryable 503, and requests already in flight (a tools/call waiting for a person's answer)
// get a grace period to finish before the process closes.
import { type Env, readSetting } from "@/lib/config/schema";

export class Lifecycle {
  #draining = false;
  #inflight = 0;
  #idle: Array<() => void> = [];

  get draining(): boolean {
    return this.#draining;
  }

  get inflight(): number {
    return this.#inflight;
  }

  /** Counts a request as in flight until `work` settles. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#inflight++;
    try {
      return await work();
    } finally {
      this.#inflight--;
      if (this.#inflight === 0) for (const wake of this.#idle.splice(0)) wake();
    }
  }

  /** Starts draining; resolves when nothing is in flight or the grace period is over (whichever is first). */
  async drain(graceMs: number): Promise<{ finished: boolean; left: number }> {
    this.#draining = true;
    if (this.#inflight === 0) return { finished: true, left: 0 };
    const idle = new Promise<boolean>((resolve) => this.#idle.push(() => resolve(true)));
    const timeout = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), graceMs).unref());
    const finished = await Promise.race([idle, timeout]);
    return { finished, left: this.#inflight };
  }
}

/** DRAIN_GRACE_SECONDS: how long in-flight requests may run after SIGTERM (default 60). */
export function drainGraceMs(env: Env = process.env): number {
  return readSetting(env, "DRAIN_GRACE_SECONDS") * 1000;
}
