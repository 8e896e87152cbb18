// The official conformance suite (@modelcontextprotocol/conformance) against /api/mcp of the
// production build (`next build` output served by `ctl serve`, on a fresh deployment store, as
// the drills run it: bench/deployment.ts), for the 2026-07-28 requirements and the 2025-11-25 ones,
// with the fixture tools enabled (MCP_CONFORMANCE_FIXTURES=true). The suite cannot send an
// Authorization header, so a loopback proxy adds a real bearer token. Every scenario passes or is
// listed, with its reason, in the revision's baseline file; the suite's own exit code checks both
// directions. `npm test` builds once before this layer; `npm run test:conformance` builds first.
import { spawn } from "node:child_process";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, prepareDeployment, requireBuild, startInstance, type Deployment, type Instance } from "../../bench/deployment";
import { tokenMinter } from "../../bench/load";
import { conformanceTools } from "./tools";

const root = path.resolve(import.meta.dirname, "../..");
const FIXTURES = { MCP_CONFORMANCE_FIXTURES: "true", ELICITATION_COOLDOWN_SECONDS: "0" };
let dep: Deployment | undefined;
let app: Instance | undefined;
let proxy: http.Server;
let url: string;

beforeAll(async () => {
  requireBuild();
  // The deployment's seed serves flows for every served workflow: the fixtures included.
  Object.assign(process.env, FIXTURES);
  const port = await freePort();
  dep = await prepareDeployment(`http://localhost:${port}`, { postgres: process.env.DATABASE_URL || undefined });
  app = await startInstance(dep, { port, env: FIXTURES });
  const token = await tokenMinter(dep.dataDir, app.baseUrl, dep.secrets)("user-conformance");
  const target = new URL(app.baseUrl);
  proxy = http.createServer((req, res) => {
    const headers = { ...req.headers, host: target.host, authorization: `Bearer ${token}` };
    const up = http.request({ host: "127.0.0.1", port: target.port, path: req.url, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on("error", () => res.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}/api/mcp`;
});
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await app?.stop();
  await dep?.dispose();
});

function run(node: string, args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const p = spawn(node, args, { stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    p.stdout.on("data", (d: Buffer) => (out += d.toString()));
    p.stderr.on("data", (d: Buffer) => (out += d.toString()));
    p.on("close", (code) => resolve({ code, out }));
  });
}

describe.each(["2026-07-28", "2025-11-25"])("conformance, requirements %s", (revision) => {
  it("every scenario passes or is listed in the baseline with its reason", async () => {
    const { node, cli } = conformanceTools(root);
    const baseline = path.join(import.meta.dirname, `baseline-${revision}.yml`);
    const { code, out } = await run(node, [
      cli,
      "server",
      "--url",
      url,
      "--requirements",
      revision,
      "--expected-failures",
      baseline,
      "--timeout",
      "10000",
    ]);
    const total = /Total: (\d+) passed, (\d+) failed/.exec(out);
    // Worded so no CI log reader takes the suite's own tally for this run's test count.
    process.stdout.write(
      `conformance ${revision}: ${total ? `${total[1]} checks pass, ${total[2]} do not (each in the baseline with its reason)` : "no total"}\n`,
    );
    expect(out).toContain("Baseline check passed: all failures are expected.");
    expect(code).toBe(0);
  });
});
