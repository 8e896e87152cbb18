// `npm run demo` puts one real third-party MCP server behind the gateway so a newcomer sees it at
// once: @modelcontextprotocol/server-everything, started in its Streamable HTTP mode on loopback,
// registered for tenant acme (all tools, URL-mode links to https://example.com), with its flows
// open to the demo's `ctl` and `unregistered` client profiles as the seed does for our workflows.
import { spawn, type ChildProcess } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import type { Db } from "@/db/client";
import { flows } from "@/db/schema";
import { appUrl } from "@/lib/auth/oidc-config";
import { fingerprintFor } from "@/lib/policy/fingerprint";
import { SERVER_VERSION } from "@/lib/policy/flows";
import { flowIdFor, UNREGISTERED_PROFILE } from "@/lib/policy/profile-id";
import { addUpstream, getUpstream, updateUpstream } from "@/lib/gateway/registry";
import { flowWorkflowName } from "@/lib/gateway/tool-names";
import { forgetUpstreamTools, upstreamTools } from "@/lib/gateway/upstream-client";

export const DEMO_UPSTREAM_ID = "everything";
const DEMO_ACTOR = "op-admin-0001";

export interface DemoUpstream {
  url: string;
  stop(): void;
}

function start(port: number): Promise<ChildProcess> {
  const entry = createRequire(path.join(process.cwd(), "package.json")).resolve("@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, [entry, "streamableHttp"], { env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", PORT: String(port) }, stdio: ["ignore", "ignore", "pipe"] });
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
  const input = { id: DEMO_UPSTREAM_ID, displayName: "Everything (demo upstream)", url, tenants: ["acme"], exposedTools: ["*"], urlOrigins: ["https://example.com"] };
  if (await getUpstream(db, DEMO_UPSTREAM_ID)) await updateUpstream(db, DEMO_ACTOR, { id: DEMO_UPSTREAM_ID, url });
  else await addUpstream(db, DEMO_ACTOR, input);
  forgetUpstreamTools(DEMO_UPSTREAM_ID);
  const row = (await getUpstream(db, DEMO_UPSTREAM_ID))!;
  const base = appUrl();
  const tools = await upstreamTools(row);
  // As the seed does for our workflows: the demo's ctl profile promoted, unregistered a 100% canary.
  const values = tools.flatMap((t) =>
    ["ctl", UNREGISTERED_PROFILE].map((profileId) => {
      const workflow = flowWorkflowName(row.id, t.name);
      const fp = fingerprintFor({ workflow, profileId, needs: [], issuer: `${base}/oidc`, providerIssuers: [] });
      const promoted = profileId === "ctl";
      return { id: flowIdFor(workflow, profileId), workflow, profileId, serverVersion: SERVER_VERSION, stage: promoted ? ("promoted" as const) : ("canary" as const), canaryPercent: promoted ? 0 : 100, fingerprint: fp.fingerprint, fingerprintInputs: fp.inputs, retestRequired: !promoted };
    }),
  );
  if (values.length) await db.insert(flows).values(values).onConflictDoNothing();
  return { url, stop: () => void child.kill("SIGTERM") };
}
