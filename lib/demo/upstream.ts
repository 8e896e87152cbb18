// `npm run demo` puts one real third-party MCP server behind the gateway so a newcomer sees it at
// once: @modelcontextprotocol/server-everything, started in its Streamable HTTP mode on loopback,
// registered for tenant acme (all tools, URL-mode links to https://example.com), with its flows
// open to the demo's `ctl` and `unregistered` client profiles as the seed does for our workflows.
// The seed (lib/demo/seed-upstream.ts) has already registered it with two weeks of records; here
// its URL is pointed at the running server and its first contact fills the health figures.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import type { Db } from "@/db/client";
import { flows } from "@/db/schema";
import { appUrl } from "@/lib/auth/oidc-config";
import { DEMO_UPSTREAM_ID, DEMO_UPSTREAM_NAME, DEMO_UPSTREAM_ORIGIN, demoUpstreamFlow } from "@/lib/demo/seed-upstream";
import { UNREGISTERED_PROFILE } from "@/lib/policy/profile-id";
import { addUpstream, getUpstream, updateUpstream } from "@/lib/gateway/registry";
import { forgetUpstreamTools, upstreamTools } from "@/lib/gateway/upstream-client";

export { DEMO_UPSTREAM_ID };
const DEMO_ACTOR = "op-admin-0001";

export interface DemoUpstream {
  url: string;
  stop(): void;
}

function start(port: number): Promise<ChildProcess> {
  const entry = createRequire(path.join(process.cwd(), "package.json")).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, [entry, "streamableHttp"], {
    env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let seen = "";
    child.stderr!.on("data", (d: Buffer) => {
      seen += d.toString();
      if (seen.includes("listening")) resolve(child);
    });
    child.once("exit", (code) => reject(new Error(`server-everything exited (${code})`)));
  });
}

export async function startDemoUpstream(db: Db, port: number): Promise<DemoUpstream> {
  const child = await start(port);
  const url = `http://127.0.0.1:${port}/mcp`;
  const input = {
    id: DEMO_UPSTREAM_ID,
    displayName: DEMO_UPSTREAM_NAME,
    url,
    tenants: ["acme"],
    exposedTools: ["*"],
    urlOrigins: [DEMO_UPSTREAM_ORIGIN],
  };
  if (await getUpstream(db, DEMO_UPSTREAM_ID)) await updateUpstream(db, DEMO_ACTOR, { id: DEMO_UPSTREAM_ID, url });
  else await addUpstream(db, DEMO_ACTOR, input);
  forgetUpstreamTools(DEMO_UPSTREAM_ID);
  const row = (await getUpstream(db, DEMO_UPSTREAM_ID))!;
  const base = appUrl();
  const tools = await upstreamTools(row);
  // As the seed does for our workflows: the demo's ctl profile promoted, unregistered a 100% canary.
  const values = tools.flatMap((t) =>
    ["ctl", UNREGISTERED_PROFILE].map((profileId) =>
      demoUpstreamFlow(
        t.name,
        profileId,
        base,
        profileId === "ctl" ? { stage: "promoted", canaryPercent: 0 } : { stage: "canary", canaryPercent: 100 },
      ),
    ),
  );
  if (values.length) await db.insert(flows).values(values).onConflictDoNothing();
  return { url, stop: () => void child.kill("SIGTERM") };
}
