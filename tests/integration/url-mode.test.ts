// URL mode against the real engine, the real downstream provider (oidc-provider) and the real
// openid-client exchange. The browser steps (connect page, Continue, callback) are the lib/connect
// functions the pages call; the full browser walk is in tests/e2e/url-mode.test.ts.
import { and, eq, inArray } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { auditLog, downstreamConnections, elicitationRecords, vaultSecrets } from "@/db/schema";
import { completeCallback, connectView, continueConnect, declineConnect, restartConnect } from "@/lib/connect/flow";
import { getRecord } from "@/lib/elicitation/records";
import { engageKillSwitch } from "@/lib/policy/kill-switch";
import { useMcpApp } from "../helpers/mcp-app";
import { forgetConnection } from "../helpers/url-mode-reset";
import { connectClient, type TestClient } from "../helpers/mcp-client";
import { loginAtProvider } from "../helpers/provider-login";

const mcp = useMcpApp({ records: 10, appUrl: "server" });
let n = 0;

// Fresh demo-like users per case: the downstream provider knows the three demo end users, so the
// cases use them in distinct tenants' worth of isolation by revoking connections between cases.
async function user(subject = "user-alice-1001", tenant = "acme") {
  const token = await mcp.token({ subject, tenant });
  return { subject, tenant, token, browser: { sub: subject, tenant } };
}

const reset = (subject: string) => forgetConnection(mcp.db, subject);

async function urlClient(token: string, answer: "accept" | "decline" | "cancel" = "accept"): Promise<TestClient> {
  return connectClient(mcp.resource, token, {
    name: `url-client-${++n}`,
    capabilities: { elicitation: { form: {}, url: {} } },
    answer: () => ({ action: answer }),
  });
}

const grants = async (subject: string) =>
  (await mcp.db.select().from(downstreamConnections).where(eq(downstreamConnections.subject, subject))).length;

/** Continue on the connect page and sign in at the provider; returns the redirect back to us. */
async function throughProvider(id: string, u: Awaited<ReturnType<typeof user>>): Promise<URL> {
  const go = await continueConnect(mcp.db, id, u.browser);
  if (!go.ok) throw new Error(go.problem);
  return loginAtProvider(go.location, "alice", `${mcp.baseUrl}/connect/callback`);
}

async function startFlow(u: Awaited<ReturnType<typeof user>>) {
  const c = await urlClient(u.token);
  const first = await c.call("list_repositories");
  expect(first.structured).toMatchObject({ outcome: "connect_pending" });
  const id = first.structured.elicitationId as string;
  return { c, id, elicitation: c.received[0]! };
}

describe("URL mode", () => {
  it("sends a URL elicitation to this app's connect page, with no token, PII or session id in it", async () => {
    const u = await user();
    await reset(u.subject);
    const { c, id, elicitation } = await startFlow(u);
    expect(elicitation).toMatchObject({ mode: "url", elicitationId: id, url: `${mcp.baseUrl}/connect/${id}` });
    expect(String(elicitation.url)).not.toContain(u.subject);
    expect(String(elicitation.url)).not.toContain(c.transport.sessionId!);
    expect(await getRecord(mcp.db, id)).toMatchObject({
      state: "accepted",
      mode: "url",
      needKind: "grant",
      providerId: "demo-git",
      redirectUri: `${mcp.baseUrl}/connect/callback`,
    });
    await c.close();
  });

  it("completes through the provider, stores one vaulted grant, and the retried call uses it", async () => {
    const u = await user();
    await reset(u.subject);
    const { c, id } = await startFlow(u);
    expect(await connectView(mcp.db, id, u.browser)).toMatchObject({
      ok: true,
      view: { providerName: "Demo Git", providerUrl: `${mcp.baseUrl}/dev/downstream` },
    });
    const go = await continueConnect(mcp.db, id, u.browser);
    if (!go.ok) throw new Error(go.problem);
    const auth = new URL(go.location);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("redirect_uri")).toBe(`${mcp.baseUrl}/connect/callback`);
    const callback = await loginAtProvider(go.location, "alice", `${mcp.baseUrl}/connect/callback`);
    expect(await completeCallback(mcp.db, callback.searchParams, u.browser)).toMatchObject({ ok: true, created: true });
    expect(await getRecord(mcp.db, id)).toMatchObject({ state: "completed" });
    const again = await c.call("list_repositories");
    expect(again.structured).toMatchObject({ outcome: "completed", repositories: ["acme/reports", "acme/infrastructure", "acme/website"] });
    // The token is not in the tool result, and the vault row does not hold it in clear.
    const [secret] = await mcp.db.select().from(vaultSecrets);
    expect(JSON.stringify(again)).not.toMatch(/eyJ/);
    expect(secret!.ciphertext.includes(Buffer.from("eyJ"))).toBe(false);
    expect(await grants(u.subject)).toBe(1);
    // A replayed callback does nothing.
    expect(await completeCallback(mcp.db, callback.searchParams, u.browser)).toMatchObject({ ok: false, problem: "used" });
    expect(await grants(u.subject)).toBe(1);
    await c.close();
  });

  it("re-offers the same pending record on retry: same id, no new record", async () => {
    const u = await user("user-bob-1002");
    await reset(u.subject);
    const { c, id } = await startFlow(u);
    const retry = await c.call("list_repositories");
    expect(retry.structured).toMatchObject({ outcome: "connect_pending", elicitationId: id, reused: true });
    expect(c.received.map((r) => r.elicitationId)).toEqual([id, id]);
    expect(
      (
        await mcp.db
          .select()
          .from(elicitationRecords)
          .where(and(eq(elicitationRecords.subject, u.subject), eq(elicitationRecords.state, "accepted")))
      ).length,
    ).toBe(1);
    await c.close();
  });

  describe("attacks: each ends with no credential attached", () => {
    it("another user (mallory) opening alice's link sees nothing and the attempt is audited", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      const mallory = { sub: "user-mallory-2001", tenant: "globex" };
      expect(await connectView(mcp.db, id, mallory)).toEqual({ ok: false, problem: "mismatch" });
      expect(await continueConnect(mcp.db, id, mallory)).toEqual({ ok: false, problem: "mismatch" });
      const audited = await mcp.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "connect.mismatch"), eq(auditLog.actorId, mallory.sub)));
      expect(audited.length).toBeGreaterThanOrEqual(2);
      expect(await getRecord(mcp.db, id)).toMatchObject({ state: "accepted" });
      expect(await grants(mallory.sub)).toBe(0);
      await c.close();
    });

    it("the same subject in another tenant is refused", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      expect(await connectView(mcp.db, id, { sub: u.subject, tenant: "globex" })).toEqual({ ok: false, problem: "mismatch" });
      await c.close();
    });

    it("a changed elicitation id finds nothing", async () => {
      const u = await user();
      expect(await connectView(mcp.db, "0".repeat(32), u.browser)).toEqual({ ok: false, problem: "not_found" });
      expect(await connectView(mcp.db, "../../etc/passwd", u.browser)).toEqual({ ok: false, problem: "not_found" });
    });

    it("a reused link (Continue twice) attaches nothing the second time", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      expect((await continueConnect(mcp.db, id, u.browser)).ok).toBe(true);
      expect(await continueConnect(mcp.db, id, u.browser)).toEqual({ ok: false, problem: "used" });
      await c.close();
    });

    it("a changed state, a foreign browser subject at the callback, or a tampered code attach nothing", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      const callback = await throughProvider(id, u);
      const changedState = new URLSearchParams(callback.searchParams);
      changedState.set("state", "x".repeat(43));
      expect(await completeCallback(mcp.db, changedState, u.browser)).toMatchObject({ ok: false, problem: "not_found" });
      expect(await completeCallback(mcp.db, callback.searchParams, { sub: "user-mallory-2001", tenant: "globex" })).toMatchObject({
        ok: false,
        problem: "mismatch",
      });
      const tampered = new URLSearchParams(callback.searchParams);
      tampered.set("code", "forged-code");
      expect(await completeCallback(mcp.db, tampered, u.browser)).toMatchObject({ ok: false, problem: "refused" });
      expect(await grants(u.subject)).toBe(0);
      expect(await getRecord(mcp.db, id)).toMatchObject({ state: "failed" });
      await c.close();
    });

    it("the same callback loaded six times at once connects exactly once; the others are told the link is in use and change nothing", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      const callback = await throughProvider(id, u);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => completeCallback(mcp.db, new URLSearchParams(callback.searchParams), u.browser)),
      );
      expect(results.filter((r) => r.ok)).toHaveLength(1);
      expect(results.filter((r) => !r.ok)).toEqual(Array.from({ length: 5 }, () => ({ ok: false, problem: "used" })));
      expect(await grants(u.subject)).toBe(1);
      expect(await getRecord(mcp.db, id)).toMatchObject({ state: "completed", lateCallbackAt: null });
      const noise = await mcp.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), inArray(auditLog.action, ["record.late_callback", "record.failed"])));
      expect(noise).toEqual([]);
      await c.close();
    });

    it("a Continue that never came back: the same link offers to start again; the old trip then completes nothing, the new one connects once", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      const abandoned = await throughProvider(id, u); // signed in at the provider, never came back
      const view = await connectView(mcp.db, id, u.browser);
      expect(view).toMatchObject({ ok: true, view: { id, startedAt: expect.any(Date) } });
      // Only the person themselves, only while the record is opened.
      expect(await restartConnect(mcp.db, id, { sub: "user-mallory-2001", tenant: "globex" })).toEqual({ ok: false, problem: "mismatch" });
      const again = await restartConnect(mcp.db, id, u.browser);
      if (!again.ok) throw new Error(again.problem);
      expect(await completeCallback(mcp.db, abandoned.searchParams, u.browser)).toMatchObject({ ok: false, problem: "not_found" });
      const back = await loginAtProvider(again.location, "alice", `${mcp.baseUrl}/connect/callback`);
      expect(await completeCallback(mcp.db, back.searchParams, u.browser)).toMatchObject({ ok: true });
      expect(await grants(u.subject)).toBe(1);
      expect(await getRecord(mcp.db, id)).toMatchObject({ state: "completed" });
      expect(await restartConnect(mcp.db, id, u.browser)).toEqual({ ok: false, problem: "finished" });
      const restarted = await mcp.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.targetId, id), eq(auditLog.action, "connect.restarted")));
      expect(restarted).toHaveLength(1);
      await c.close();
    });

    it("start again is refused before any Continue, and two restarts at once rotate once", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      expect(await restartConnect(mcp.db, id, u.browser)).toEqual({ ok: false, problem: "finished" });
      await throughProvider(id, u);
      const both = await Promise.all([restartConnect(mcp.db, id, u.browser), restartConnect(mcp.db, id, u.browser)]);
      expect(both.filter((r) => r.ok)).toHaveLength(1);
      expect(both.filter((r) => !r.ok)).toEqual([{ ok: false, problem: "used" }]);
      await c.close();
    });

    it("a callback with another issuer is refused (mix-up)", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      const callback = await throughProvider(id, u);
      const q = new URLSearchParams(callback.searchParams);
      q.set("iss", "https://evil.example");
      expect(await completeCallback(mcp.db, q, u.browser)).toMatchObject({ ok: false, problem: "refused" });
      expect(await grants(u.subject)).toBe(0);
      await c.close();
    });

    it("an expired link attaches nothing and a late callback is recorded", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      const callback = await throughProvider(id, u);
      await mcp.db
        .update(elicitationRecords)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(elicitationRecords.id, id));
      expect(await completeCallback(mcp.db, callback.searchParams, u.browser)).toMatchObject({ ok: false, problem: "expired" });
      expect(await getRecord(mcp.db, id)).toMatchObject({ state: "expired", lateCallbackAt: expect.any(Date) });
      expect(await grants(u.subject)).toBe(0);
      await c.close();
    });

    it("a link declined on the page attaches nothing", async () => {
      const u = await user();
      await reset(u.subject);
      const { c, id } = await startFlow(u);
      expect(await declineConnect(mcp.db, id, u.browser, "decline")).toEqual({ ok: true });
      expect(await continueConnect(mcp.db, id, u.browser)).toEqual({ ok: false, problem: "finished" });
      await c.close();
    });
  });

  it("never uses a form: without URL mode the client gets the fallback", async () => {
    const u = await user();
    await reset(u.subject);
    const c = await connectClient(mcp.resource, u.token, {
      name: "form-only",
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "accept", content: {} }),
    });
    const r = await c.call("list_repositories");
    expect(r.text).toMatch(/client declared no URL mode; grant never goes in a form/);
    expect(r.structured).toMatchObject({ setupUrl: `${mcp.baseUrl}/setup/demo-git` });
    expect(c.received).toHaveLength(0);
    // The setup path outside the workflow leads into the same connect flow for the same user.
    const { startSetup } = await import("@/lib/connect/setup");
    const started = await startSetup(mcp.db, "demo-git", u.browser);
    if (!started.ok || !("connectPath" in started)) throw new Error("setup did not start");
    const id = started.connectPath.split("/").pop()!;
    expect(await connectView(mcp.db, id, { sub: "user-mallory-2001", tenant: "globex" })).toEqual({ ok: false, problem: "mismatch" });
    const callback = await throughProvider(id, u);
    expect(await completeCallback(mcp.db, callback.searchParams, u.browser)).toMatchObject({ ok: true });
    expect((await c.call("list_repositories")).structured).toMatchObject({ outcome: "completed" });
    await c.close();
  });

  it("drops and counts content sent with a URL-mode accept", async () => {
    const u = await user();
    await reset(u.subject);
    const c = await connectClient(mcp.resource, u.token, {
      name: "chatty",
      capabilities: { elicitation: { url: {} } },
      answer: () => ({ action: "accept", content: { password: "CANARY-url-content" } }),
    });
    const r = await c.call("list_repositories");
    const record = await getRecord(mcp.db, r.structured.elicitationId as string);
    expect(record).toMatchObject({ state: "accepted", droppedContentCount: 1 });
    expect(JSON.stringify(record)).not.toContain("CANARY-url-content");
    await c.close();
  });

  it("a URL-mode kill switch blocks new URL elicitations", async () => {
    const u = await user("user-bob-1002");
    await reset(u.subject);
    await engageKillSwitch(mcp.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:url", reason: "phishing report" });
    const c = await urlClient(u.token);
    const r = await c.call("list_repositories");
    expect(r.text).toMatch(/kill switch mode:url is engaged \(stopped by an operator\)/);
    expect(r.text).not.toContain("phishing report");
    expect(c.received).toHaveLength(0);
    await c.close();
  });
});

async function clearKillSwitches() {
  const { releaseKillSwitch } = await import("@/lib/policy/kill-switch");
  for (const who of ["op-operator-0002", "op-admin-0001"])
    await releaseKillSwitch(mcp.db, { type: "operator", id: who }, { scope: "mode:url", reason: "resolved now" }).catch(() => undefined);
}

describe("revocation", () => {
  it("revokes a pending handle; its late callback attaches nothing and is recorded as late", async () => {
    await clearKillSwitches();
    const u = await user();
    await reset(u.subject);
    const { c, id } = await startFlow(u);
    const callback = await throughProvider(id, u);
    const { revokeRecords } = await import("@/lib/elicitation/revoke");
    expect(await revokeRecords(mcp.db, { type: "operator", id: "op-operator-0002" }, { ids: [id] }, "suspicious")).toEqual([id]);
    expect(await completeCallback(mcp.db, callback.searchParams, u.browser)).toMatchObject({ ok: false, problem: "revoked" });
    expect(await getRecord(mcp.db, id)).toMatchObject({ state: "revoked", lateCallbackAt: expect.any(Date) });
    expect(await grants(u.subject)).toBe(0);
    const late = await mcp.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "record.late_callback"), eq(auditLog.targetId, id)));
    expect(late).toHaveLength(1);
    await c.close();
  });

  it("engaging the URL kill switch revokes unfinished URL handles, audited one by one", async () => {
    const u = await user("user-bob-1002");
    await reset(u.subject);
    await clearKillSwitches();
    const { c, id } = await startFlow(u);
    await engageKillSwitch(mcp.db, { type: "operator", id: "op-operator-0002" }, { scope: "mode:url", reason: "second incident" });
    expect(await getRecord(mcp.db, id)).toMatchObject({ state: "revoked" });
    expect(await connectView(mcp.db, id, u.browser)).toEqual({ ok: false, problem: "revoked" });
    expect(
      await mcp.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "record.revoked"), eq(auditLog.targetId, id))),
    ).toHaveLength(1);
    await c.close();
  });
});

describe("recovery: exactly one grant, and the workflow completes", () => {
  async function completeInBrowser(id: string, u: Awaited<ReturnType<typeof user>>) {
    const callback = await throughProvider(id, u);
    expect(await completeCallback(mcp.db, callback.searchParams, u.browser)).toMatchObject({ ok: true });
  }

  it("the accept is lost, the person completes in the browser meanwhile: the original call reconciles", async () => {
    await clearKillSwitches();
    const u = await user();
    await reset(u.subject);
    process.env.ELICITATION_TIMEOUT_SECONDS = "2";
    try {
      let seen: string | undefined;
      // The client never answers (its accept is lost on the way).
      const c = await connectClient(mcp.resource, u.token, {
        name: "lossy",
        capabilities: { elicitation: { url: {} } },
        answer: (p) => ((seen = String((p as { elicitationId: string }).elicitationId)), new Promise(() => {})),
      });
      const call = c.call("list_repositories");
      await expect.poll(() => seen, { timeout: 5000 }).toBeDefined();
      await completeInBrowser(seen!, u);
      expect((await call).structured).toMatchObject({ outcome: "completed" });
      expect(await grants(u.subject)).toBe(1);
      await c.close();
    } finally {
      delete process.env.ELICITATION_TIMEOUT_SECONDS;
    }
  });

  it("the completion notification is lost: the retried call uses the connection", async () => {
    await clearKillSwitches();
    const u = await user();
    await reset(u.subject);
    const { c, id } = await startFlow(u);
    await completeInBrowser(id, u); // no GET stream is open: the notification goes nowhere
    expect((await c.call("list_repositories")).structured).toMatchObject({ outcome: "completed" });
    expect((await c.call("list_repositories")).structured).toMatchObject({ outcome: "completed" });
    expect(await grants(u.subject)).toBe(1);
    await c.close();
  });

  it("the call is retried before the person finishes: same link, then the retry after completion succeeds", async () => {
    await clearKillSwitches();
    const u = await user();
    await reset(u.subject);
    const { c, id } = await startFlow(u);
    expect((await c.call("list_repositories")).structured).toMatchObject({ outcome: "connect_pending", elicitationId: id });
    await completeInBrowser(id, u);
    expect((await c.call("list_repositories")).structured).toMatchObject({ outcome: "completed" });
    expect(await grants(u.subject)).toBe(1);
    const records = await mcp.db
      .select()
      .from(elicitationRecords)
      .where(and(eq(elicitationRecords.subject, u.subject), eq(elicitationRecords.state, "completed")));
    expect(records).toHaveLength(1);
    await c.close();
  });
});

describe("allowlist and secrets at rest", () => {
  it("refuses to send a user anywhere when the redirect URI or the provider is not registered", async () => {
    await clearKillSwitches();
    const { origins, providers } = await import("@/db/schema");
    const u = await user();
    await reset(u.subject);
    await mcp.db.update(origins).set({ redirectUris: [`${mcp.baseUrl}/connect/callback/`] });
    const c = await urlClient(u.token);
    const r = await c.call("list_repositories");
    expect(r.text).toMatch(/redirect URI .* is not registered/);
    expect(c.received).toHaveLength(0);
    await mcp.db.update(origins).set({ redirectUris: [`${mcp.baseUrl}/connect/callback`] });
    await mcp.db.update(providers).set({ disabledAt: new Date() });
    const again = await urlClient((await user("user-bob-1002")).token);
    expect((await again.call("list_repositories")).text).toMatch(/provider demo-git is not registered or is disabled/);
    await mcp.db.update(providers).set({ disabledAt: null });
    await c.close();
    await again.close();
  });

  it("keeps the downstream token out of every table in clear", async () => {
    await clearKillSwitches();
    const u = await user();
    await reset(u.subject);
    const { c, id } = await startFlow(u);
    const callback = await throughProvider(id, u);
    await completeCallback(mcp.db, callback.searchParams, u.browser);
    const { connectionTokens } = await import("@/lib/connect/connections");
    const [connection] = await mcp.db.select().from(downstreamConnections).where(eq(downstreamConnections.subject, u.subject));
    const { access_token } = await connectionTokens(mcp.db, connection!);
    expect(access_token.length).toBeGreaterThan(40);
    const { sql } = await import("drizzle-orm");
    const { rowsOf } = await import("@/db/client");
    const tables = rowsOf<{ t: string }>(
      await mcp.db.execute(sql`select table_name as t from information_schema.tables where table_schema = 'public'`),
    );
    let dumped = 0;
    for (const { t: table } of tables) {
      const rows = rowsOf<{ j: string }>(await mcp.db.execute(sql.raw(`select row_to_json(x)::text as j from "${table}" x`)));
      const text = rows.map((r) => r.j).join("\n");
      dumped += text.length;
      expect(text.includes(access_token), table).toBe(false);
      expect(text.includes(access_token.split(".")[2]!), table).toBe(false);
    }
    expect(dumped).toBeGreaterThan(10_000);
    // And an evidence export of the whole audit log.
    const fs = await import("node:fs");
    const os = await import("node:os");
    const path = await import("node:path");
    const { exportAudit } = await import("@/lib/audit/export");
    const { loadSigner } = await import("@/lib/audit/signing");
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "eg-token-export-"));
    await exportAudit({
      db: mcp.db,
      outDir: out,
      format: "ndjson",
      signer: loadSigner({ DATA_DIR: out }),
      actor: { type: "system", id: "test" },
    });
    const exported = fs.readFileSync(path.join(out, "audit.ndjson"), "utf8");
    expect(exported).toContain("connect.completed");
    expect(exported.includes(access_token)).toBe(false);
    await c.close();
  });
});
