// The rolling-restart drill's load balancer: what docs/DEPLOYMENT.md asks of an ingress. Requests
// that carry an Mcp-Session-Id go to the instance that created that session (learned from the
// initialize response's header), everything else to the instances in rotation, and an instance
// leaves the rotation when its /readyz fails (polled, as a Kubernetes readiness probe would).
// Streams both ways, so SSE responses pass through unchanged. (bench/balancer.ts switches one
// upstream by hand and knows nothing of sessions: right for a fail-over, not for a rolling restart.)
import http from "node:http";
import type net from "node:net";

export interface SessionBalancer {
  url: string;
  /** Adds an instance to the rotation (it still must answer /readyz to receive new work). */
  add(port: number): void;
  /** Ports that currently receive new work. */
  ready(): number[];
  close(): Promise<void>;
}

export async function startSessionBalancer(port = 0): Promise<SessionBalancer> {
  const members = new Map<number, boolean>(); // port -> ready
  const sessions = new Map<string, number>(); // Mcp-Session-Id -> port
  let next = 0;
  const pick = (): number | undefined => {
    const ready = [...members].filter(([, ok]) => ok).map(([p]) => p);
    return ready.length ? ready[next++ % ready.length] : undefined;
  };
  const probe = setInterval(() => {
    for (const p of members.keys()) {
      fetch(`http://127.0.0.1:${p}/readyz`)
        .then((r) => members.has(p) && members.set(p, r.status === 200))
        .catch(() => members.has(p) && members.set(p, false));
    }
  }, 100);
  const server = http.createServer((req, res) => {
    const sid = req.headers["mcp-session-id"];
    const target = (typeof sid === "string" ? sessions.get(sid) : undefined) ?? pick();
    if (target === undefined) {
      res.writeHead(503, { "retry-after": "1" }).end("no ready upstream");
      return;
    }
    const upstream = http.request({ host: "127.0.0.1", port: target, method: req.method, path: req.url, headers: req.headers }, (up) => {
      const issued = up.headers["mcp-session-id"];
      if (typeof issued === "string") sessions.set(issued, target);
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("bad gateway: upstream unreachable");
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  const bound = (server.address() as net.AddressInfo).port;
  return {
    url: `http://localhost:${bound}`,
    add: (p) => void members.set(p, false),
    ready: () => [...members].filter(([, ok]) => ok).map(([p]) => p),
    close: () => (clearInterval(probe), new Promise((r) => (server.closeAllConnections(), server.close(() => r())))),
  };
}
