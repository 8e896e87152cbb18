// A fetch for one load-test client over node:http with its own connection pool, so a test can do
// what a crashed client does: destroy its sockets (Agent.destroy), with no FIN-and-wait courtesy
// and no DELETE. The global fetch shares one pool per process and offers no such handle.
import http from "node:http";
import { Readable } from "node:stream";

export interface SocketFetch {
  fetch: (url: string | URL, init?: RequestInit) => Promise<Response>;
  /** Destroys every socket of this client at once (in-flight streams included). */
  destroySockets(): void;
}

const NULL_BODY = new Set([101, 204, 205, 304]);

export function socketFetch(): SocketFetch {
  const agent = new http.Agent({ keepAlive: true });
  const fetch = (url: string | URL, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const headers: Record<string, string> = {};
      new Headers(init.headers).forEach((v, k) => (headers[k] = v));
      const req = http.request(new URL(url), { method: init.method ?? "GET", headers, agent }, (res) => {
        const out = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (v !== undefined) out.set(k, Array.isArray(v) ? v.join(", ") : v);
        const status = res.statusCode ?? 500;
        const body = NULL_BODY.has(status) || init.method === "HEAD" ? null : (Readable.toWeb(res) as ReadableStream<Uint8Array>);
        if (!body) res.resume();
        resolve(new Response(body, { status, headers: out }));
      });
      req.on("error", reject);
      init.signal?.addEventListener("abort", () => req.destroy(new Error("aborted")), { once: true });
      if (typeof init.body === "string") req.end(init.body);
      else if (init.body == null) req.end();
      else reject(new Error("socketFetch sends string bodies only"));
    });
  return { fetch, destroySockets: () => agent.destroy() };
}
