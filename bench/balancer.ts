// A minimal reverse proxy standing in for a load balancer in the fault drills: one public origin,
// path-prefix routes to fixed upstreams (the identity provider and the downstream provider, which
// in production live outside the app), and everything else to the active app instance, switchable
// at run time (fail-over). Streams both ways, so MCP's SSE responses pass through unchanged.
import http from "node:http";
import type net from "node:net";

export interface Balancer {
  port: number;
  url: string;
  /** Sends app traffic to another instance from the next request on. */
  switchTo(upstreamPort: number): void;
  close(): Promise<void>;
}

export async function startBalancer(opts: {
  port: number;
  appPort: number;
  fixed: Array<{ prefix: string; port: number }>;
}): Promise<Balancer> {
  let appPort = opts.appPort;
  const server = http.createServer((req, res) => {
    const path = req.url ?? "/";
    const port = opts.fixed.find((f) => path === f.prefix || path.startsWith(`${f.prefix}/`))?.port ?? appPort;
    const upstream = http.request({ host: "127.0.0.1", port, method: req.method, path, headers: req.headers }, (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    upstream.on("error", () => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" }).end("bad gateway: upstream unreachable");
      else res.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((r) => server.listen(opts.port, "127.0.0.1", r));
  const port = (server.address() as net.AddressInfo).port;
  return {
    port,
    url: `http://localhost:${port}`,
    switchTo: (p) => void (appPort = p),
    close: () => new Promise((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}
