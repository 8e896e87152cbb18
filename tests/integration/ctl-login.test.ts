// `ctl login` proves who acts: the real ctl in a child process, the device authorization grant
// completed over HTTP at the in-process provider, and the store checked behind every refusal.
// With DATABASE_URL the CLI works on PostgreSQL directly; without it, on an embedded store held by
// this process, so its commands go through the local control channel (the server verifies).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { and, desc, eq } from "drizzle-orm";
import { decodeJwt, importJWK, SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { migrateStore } from "@/db/migrate";
import { auditLog, killSwitches } from "@/db/schema";
import { devJwks } from "@/lib/auth/dev-idp/keys";
import { syncOperatorAtSignIn } from "@/lib/auth/sign-in-sync";
import { openControlChannel } from "@/lib/server/control-channel";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { runCli } from "../helpers/cli";
import { ctlLogin } from "../helpers/ctl-login";
import { createTestStore, requirePostgresInCi, type TestStore } from "../helpers/test-store";

let store: Store;
let pg: TestStore | undefined;
let app: TestAppServer;
let closeChannel: (() => void) | undefined;
let storeEnv: Record<string, string | undefined>;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-ctl-login-"));
const sessionOf = (who: string) => path.join(tmp, `${who}.json`);

beforeAll(async () => {
  requirePostgresInCi();
  if (process.env.DATABASE_URL) {
    pg = await createTestStore();
    store = pg.store;
    app = await startAppServer(store.db);
    storeEnv = { DATABASE_URL: pg.url, DATA_DIR: app.dataDir };
  } else {
    const dataDir = path.join(tmp, "data");
    const config = { kind: "pglite" as const, dataDir: path.join(dataDir, "pglite") };
    store = await openStore(config, { purpose: "ctl-login test" });
    await migrateStore(store, config);
    app = await startAppServer(store.db, {
      dataDir,
      before: (baseUrl) => {
        const channel = openControlChannel(store, config.dataDir, baseUrl.replace("localhost", "127.0.0.1"));
        closeChannel = channel.close;
        return channel.handle;
      },
    });
    storeEnv = { DATABASE_URL: "", DATA_DIR: dataDir };
  }
  for (const [subject, role] of [
    ["op-admin-0001", "admin"],
    ["op-operator-0002", "operator"],
    ["op-viewer-0006", "viewer"],
  ] as const) {
    await syncOperatorAtSignIn(store.db, { subject, displayName: subject, roles: [role] });
  }
}, 120_000);

afterAll(async () => {
  closeChannel?.();
  await app?.close();
  if (pg) await pg.dispose();
  else await store?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const env = (who?: string, extra: Record<string, string> = {}) => ({
  ...storeEnv,
  APP_URL: app.baseUrl,
  APP_ENV: "development",
  OIDC_ISSUER: "",
  CTL_SESSION_FILE: sessionOf(who ?? "nobody"),
  ...extra,
});

async function globalSwitch() {
  const [row] = await store.db.select().from(killSwitches).where(eq(killSwitches.scope, "global"));
  return row;
}

async function signedToken(claims: JWTPayload, opts: { key?: "real" | "other"; kid?: string } = {}): Promise<string> {
  const real = devJwks({ ...process.env, DATA_DIR: app.dataDir }, "dev-oidc").keys[0]!;
  const jwk =
    opts.key === "other"
      ? { ...crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }), kid: real.kid }
      : real;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: `${app.baseUrl}/oidc`, aud: "ctl", sub: "op-admin-0001", iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: String(real.kid) })
    .sign(await importJWK(jwk as Parameters<typeof importJWK>[0], "RS256"));
}

function writeSession(who: string, idToken: string): void {
  fs.writeFileSync(
    sessionOf(who),
    JSON.stringify({ sessions: { [`${app.baseUrl}/oidc`]: { clientId: "ctl", idToken, obtainedAt: new Date().toISOString() } } }),
    { mode: 0o600 },
  );
}

describe("ctl login and operator proof", () => {
  it("without a login only break-glass engage works, as the system actor ctl, audited as such", async () => {
    const on = await runCli(["kill-switch", "on", "--reason", "incident drill", "--json"], env());
    expect(on.code).toBe(0);
    expect(JSON.parse(on.stdout)).toMatchObject({ state: "engaged", actor: { type: "system", id: "ctl" } });
    expect(await globalSwitch()).toMatchObject({ active: true, changedBy: "ctl" });
    const audited = await store.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "kill_switch.on"), eq(auditLog.actorId, "ctl")));
    expect(audited.length).toBeGreaterThan(0);
    expect(audited[0]!.actorType).toBe("system");

    for (const args of [
      ["kill-switch", "off", "--reason", "over"],
      ["kill-switch", "off", "--reason", "over", "--as", "op-admin-0001"],
      ["revoke", "--pending", "--reason", "cleanup"],
      ["approvals", "approve", "apr_0123456789abcdef", "--reason", "fine by me"],
      ["gates", "run", "--flow", "f"],
    ]) {
      const r = await runCli(args, env());
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.stderr).toMatch(/run "ctl login" first/);
    }
    expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: null });
  }, 240_000);

  it("logs in through the device flow; the session file is the user's only and names the operator", async () => {
    const r = await ctlLogin("operator", env("operator"));
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("signed in as op-operator-0002");
    expect(r.stderr).toMatch(/enter the code [A-Z]{4}-[A-Z]{4}/);
    expect(fs.statSync(sessionOf("operator")).mode & 0o777).toBe(0o600);
    const stored = JSON.parse(fs.readFileSync(sessionOf("operator"), "utf8")) as { sessions: Record<string, { idToken: string }> };
    expect(decodeJwt(stored.sessions[`${app.baseUrl}/oidc`]!.idToken)).toMatchObject({
      sub: "op-operator-0002",
      aud: "ctl",
      iss: `${app.baseUrl}/oidc`,
    });
    const who = await runCli(["whoami", "--json"], env("operator"));
    expect(JSON.parse(who.stdout)).toMatchObject({ subject: "op-operator-0002" });
    // A file others can read is not used.
    fs.chmodSync(sessionOf("operator"), 0o644);
    const open = await runCli(["whoami"], env("operator"));
    expect(open.code).toBe(1);
    expect(open.stderr).toMatch(/readable by other users/);
    fs.chmodSync(sessionOf("operator"), 0o600);
  }, 240_000);

  it("one operator cannot both request and confirm a release, and --as cannot name someone else", async () => {
    await runCli(["kill-switch", "on", "--reason", "incident drill"], env());
    expect((await ctlLogin("operator", env("operator"))).code).toBe(0);
    const first = await runCli(["kill-switch", "off", "--reason", "drill over", "--json"], env("operator"));
    expect(first.code).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ state: "release_requested", actor: { type: "operator", id: "op-operator-0002" } });
    const again = await runCli(["kill-switch", "off", "--reason", "drill over"], env("operator"));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/second person/);
    const impersonate = await runCli(["kill-switch", "off", "--reason", "drill over", "--as", "op-admin-0001"], env("operator"));
    expect(impersonate.code).toBe(1);
    expect(impersonate.stderr).toMatch(/--as op-admin-0001 is not the signed-in operator \(op-operator-0002\)/);
    const revokeAs = await runCli(["revoke", "--pending", "--reason", "cleanup", "--as", "op-admin-0001"], env("operator"));
    expect(revokeAs.code).toBe(1);
    expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: "op-operator-0002" });
    // --as naming yourself is accepted.
    const self = await runCli(["revoke", "--pending", "--reason", "cleanup", "--as", "op-operator-0002"], env("operator"));
    expect(self.code).toBe(0);

    // A second, different proven operator confirms.
    expect((await ctlLogin("admin", env("admin"))).code).toBe(0);
    const confirm = await runCli(["kill-switch", "off", "--reason", "drill over", "--as", "op-admin-0001", "--json"], env("admin"));
    expect(confirm.code).toBe(0);
    expect(JSON.parse(confirm.stdout)).toMatchObject({ state: "released" });
    expect(await globalSwitch()).toMatchObject({ active: false, changedBy: "op-admin-0001" });
  }, 240_000);

  it("with an external issuer (OIDC_ISSUER) ctl login uses OIDC_CLI_CLIENT_ID and the issuer's published keys", async () => {
    // The bundled provider stands in for an external issuer here: the CLI knows it only by URL.
    const external = {
      OIDC_ISSUER: `${app.baseUrl}/oidc`,
      OIDC_CLIENT_ID: "console",
      OIDC_CLIENT_SECRET: "unused-by-ctl",
      OIDC_CLI_CLIENT_ID: "ctl",
      DATA_DIR: path.join(tmp, "elsewhere"),
    };
    const missing = await runCli(["login"], { ...env("external"), ...external, OIDC_CLI_CLIENT_ID: "" });
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/OIDC_CLI_CLIENT_ID/);
    const r = await ctlLogin("operator", { ...env("external"), ...external });
    expect(r.code).toBe(0);
    const who = await runCli(["whoami", "--json"], { ...env("external"), ...external });
    expect(JSON.parse(who.stdout)).toMatchObject({ subject: "op-operator-0002", issuer: `${app.baseUrl}/oidc` });
  }, 240_000);

  it("an evidence export names the signed-in operator, and the anonymous ctl without a login or with a forged one", async () => {
    const exportedBy = async (who: string) => {
      const out = path.join(tmp, `export-${who}-${crypto.randomUUID()}`);
      const r = await runCli(["audit", "export", "--out", out, "--json"], env(who));
      expect(r.code, r.stderr).toBe(0);
      const manifest = JSON.parse(fs.readFileSync(path.join(out, "manifest.json"), "utf8")) as { exportedBy: string };
      const [entry] = await store.db
        .select()
        .from(auditLog)
        .where(eq(auditLog.action, "audit.exported"))
        .orderBy(desc(auditLog.seq))
        .limit(1);
      return { manifest: manifest.exportedBy, audit: `${entry!.actorType}:${entry!.actorId}` };
    };
    expect((await ctlLogin("operator", env("operator"))).code).toBe(0);
    expect(await exportedBy("operator")).toEqual({ manifest: "operator:op-operator-0002", audit: "operator:op-operator-0002" });
    expect(await exportedBy("nobody")).toEqual({ manifest: "system:ctl", audit: "system:ctl" });
    writeSession("forged-export", await signedToken({}, { key: "other" }));
    expect(await exportedBy("forged-export")).toEqual({ manifest: "system:ctl", audit: "system:ctl" });
  }, 240_000);

  it("a signed-in operator without the permission is refused by authorize()", async () => {
    await runCli(["kill-switch", "on", "--reason", "incident drill"], env());
    expect((await ctlLogin("viewer", env("viewer"))).code).toBe(0);
    const r = await runCli(["kill-switch", "off", "--reason", "not mine"], env("viewer"));
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/op-viewer-0006 may not change the kill switch/);
    expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: null });
  }, 240_000);

  it("a forged session file proves nothing: other key, expired, stale, other audience, other issuer, edited subject, garbage", async () => {
    await runCli(["kill-switch", "on", "--reason", "incident drill"], env());
    // A genuine token for the operator, its subject then edited to the admin's.
    const genuine = await signedToken({ sub: "op-operator-0002" });
    const [h, , sig] = genuine.split(".");
    const edited = `${h}.${Buffer.from(JSON.stringify({ ...decodeJwt(genuine), sub: "op-admin-0001" })).toString("base64url")}.${sig}`;
    const now = Math.floor(Date.now() / 1000);
    const forgeries: Array<[string, string, RegExp]> = [
      ["other-key", await signedToken({}, { key: "other" }), /not valid/],
      ["expired", await signedToken({ iat: now - 4000, exp: now - 400 }), /expired/],
      ["stale", await signedToken({ iat: now - 2000 }), /older than 900 seconds/],
      ["audience", await signedToken({ aud: "console" }), /not valid/],
      ["azp", await signedToken({ aud: ["ctl", "console"], azp: "console" }), /another client/],
      ["issuer", await signedToken({ iss: "https://evil.example/oidc" }), /not valid/],
      ["edited", edited, /not valid/],
      ["garbage", "not.a.jwt", /not valid/],
      [
        "none-alg",
        `${Buffer.from('{"alg":"none"}').toString("base64url")}.${Buffer.from(JSON.stringify({ sub: "op-admin-0001", aud: "ctl", iss: `${app.baseUrl}/oidc` })).toString("base64url")}.`,
        /not valid/,
      ],
    ];
    for (const [name, token, message] of forgeries) {
      writeSession(`forged-${name}`, token);
      const r = await runCli(["kill-switch", "off", "--reason", "forged release"], env(`forged-${name}`));
      expect(r.code, name).toBe(1);
      expect(r.stderr, name).toMatch(message);
      // Break-glass still engages, but as the system actor, never as the forged subject.
      if (name === "edited" || name === "other-key") {
        const on = await runCli(["kill-switch", "on", "--reason", "forged engage", "--json"], env(`forged-${name}`));
        expect(JSON.parse(on.stdout).actor, name).toEqual({ type: "system", id: "ctl" });
      }
    }
    // A file that is not a session file at all.
    fs.writeFileSync(sessionOf("junk"), '{"sessions":{"__proto__":{"idToken":1}}}', { mode: 0o600 });
    expect((await runCli(["kill-switch", "off", "--reason", "forged release"], env("junk"))).code).toBe(1);
    expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: null });
  }, 240_000);

  it("a login older than CTL_FRESH_LOGIN_SECONDS must be renewed; a bad setting names itself; logout forgets", async () => {
    writeSession("fresh-check", await signedToken({ iat: Math.floor(Date.now() / 1000) - 5 }));
    expect((await runCli(["whoami"], env("fresh-check"))).code).toBe(0);
    const stale = await runCli(["kill-switch", "off", "--reason", "later"], env("fresh-check", { CTL_FRESH_LOGIN_SECONDS: "2" }));
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/older than 2 seconds: run ctl login again/);
    const bad = await runCli(["whoami"], env("fresh-check", { CTL_FRESH_LOGIN_SECONDS: "15m" }));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/CTL_FRESH_LOGIN_SECONDS must be a whole number/);
    expect((await runCli(["logout"], env("fresh-check"))).stdout).toMatch(/signed out/);
    expect((await runCli(["whoami"], env("fresh-check"))).stderr).toMatch(/not signed in/);
  }, 240_000);
});
