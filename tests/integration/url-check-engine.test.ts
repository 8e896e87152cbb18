// Issue 11 item 11: the engine's URL-mode step (lib/connect/grant.ts) and `ctl check-url` agree.
// For each deployment URL the engine is run for real against the store; the connect URL it would
// send is then given to the real CLI. The engine sends the URL exactly when the CLI says "allow",
// and when it refuses, the record names the same reason codes as the CLI.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { elicitationRecords, origins, providers } from "@/db/schema";
import { downstreamUrls } from "@/lib/auth/dev-idp/downstream";
import { ensureGrant } from "@/lib/connect/grant";
import { connectConfig } from "@/lib/connect/config";
import { seedDemo } from "@/lib/demo/seed";
import { engineConfig } from "@/lib/elicitation/config";
import type { AskContext } from "@/lib/elicitation/engine";
import type { WireAdapter } from "@/lib/elicitation/wire";
import { directPolicy } from "@/lib/policy/policy-source";
import { demoGitGrant } from "@/lib/workflows/list-repositories";
import { runCli } from "../helpers/cli";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let n = 0;
const saved = { APP_URL: process.env.APP_URL, APP_ENV: process.env.APP_ENV };

beforeAll(async () => {
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 0, appUrl: "http://localhost:4555" });
});
afterAll(async () => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  await t?.dispose();
});

const EXIT = { allow: 0, warn: 3, block: 1 } as const;

describe("a configured APP_URL that parsers read differently", () => {
  it.each([
    ["a trailing-dot host", "https://connect.example.com."],
    ["a backslash", "https://connect.example.com\\@evil.example"],
  ])("%s stops the configuration instead of reaching the engine", (_name, appUrl) => {
    Object.assign(process.env, { APP_URL: appUrl, APP_ENV: "development" });
    expect(() => connectConfig()).toThrow(/APP_URL/);
  });
});

describe("engine and CLI agree on the connect URL", () => {
  // Development mode throughout (production would need every production secret configured); the
  // URL check differs between the two only for loopback HTTP, which the unit tests cover.
  it.each([
    ["loopback HTTP in development", "http://localhost:4555", "allow"],
    ["a plain HTTPS host", "https://connect.example.com", "allow"],
    ["an IP literal (warned, so the engine refuses)", "https://203.0.113.7", "warn"],
    ["a punycode host mixing scripts", "https://xn--pple-43d.com", "warn"],
    ["plain HTTP to a non-loopback host", "http://connect.example.com", "block"],
    ["another domain inside the host", "https://connect.example.com.evil.example", "warn"],
    ["the default port spelled out", "https://connect.example.com:443", "allow"],
  ])("%s", async (_name, appUrl, expected) => {
    Object.assign(process.env, { APP_URL: appUrl, APP_ENV: "development" });
    const cfg = connectConfig();
    const origin = new URL(cfg.redirectUri).origin;
    // Neither the allowlist nor the provider registry is under test here: register the deployment's
    // own callback, and move the bundled demo provider to the deployment's URL as a fresh seed would.
    await t.store.db
      .insert(origins)
      .values({ origin, redirectUris: [cfg.redirectUri], note: null, createdBy: "test" })
      .onConflictDoNothing();
    await t.store.db.update(providers).set({ issuer: downstreamUrls().issuer }).where(eq(providers.id, demoGitGrant.providerId!));

    const sent: string[] = [];
    // The client's side of the wire: it only records the URL it was sent and declines.
    const wire: WireAdapter = {
      askForm: () => Promise.reject(new Error("no form in URL mode")),
      askUrl: async (params) => {
        sent.push(params.url);
        return { action: "decline", droppedContent: false };
      },
    };
    const clientName = `agreement-${++n}`;
    const subject = `user-agreement-${n}`;
    const policy = directPolicy(t.store.db);
    const ctx: AskContext = {
      db: t.store.db,
      subject,
      tenantId: "acme",
      session: {
        id: null,
        clientName,
        clientVersion: "1",
        protocolVersion: "2025-11-25",
        modes: { form: true, url: true },
        declared: { form: {}, url: {} },
      },
      request: { method: "tools/call", id: String(n), toolName: "list_repositories" },
      // The seeded, promoted flow of the `ctl` profile: the URL check, not the stage, decides here.
      flow: await policy.flow("list_repositories", "ctl", { fingerprint: "seeded", inputs: {} }),
      policy,
      wire,
      config: engineConfig(),
    };
    const outcome = await ensureGrant(ctx, demoGitGrant);
    if (!("recordId" in outcome)) throw new Error(`unexpected outcome ${outcome.status}`);
    const [record] = await t.store.db.select().from(elicitationRecords).where(eq(elicitationRecords.id, outcome.recordId));
    const connectUrl = cfg.connectUrl(outcome.recordId);

    const cli = await runCli(["check-url", connectUrl, ...(cfg.dev ? ["--dev"] : [])]);
    const verdict = JSON.parse(cli.stdout) as { verdict: keyof typeof EXIT; reasons: Array<{ code: string }> };
    expect(verdict.verdict).toBe(expected);
    expect(cli.code).toBe(EXIT[verdict.verdict]);
    if (verdict.verdict === "allow") {
      expect(sent).toEqual([connectUrl]);
      expect(outcome.status).toBe("declined");
    } else {
      expect(sent).toEqual([]);
      expect(outcome).toMatchObject({ status: "blocked" });
      expect(record).toMatchObject({
        state: "not_sent",
        routeDecision: "blocked",
        routeReason: `connect URL refused by the URL check: ${verdict.reasons.map((r) => r.code).join(", ")}`,
      });
    }
  });
});
