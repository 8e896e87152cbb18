// The local control channel: holding its per-start secret opens the channel but makes no one an
// operator. Requests go straight to the channel over HTTP (as a local process with the secret
// could send them); the server verifies the ID token that comes with each one itself.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { importJWK, SignJWT, type JWTPayload } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "@/db/client";
import { migrateStore } from "@/db/migrate";
import { killSwitches } from "@/db/schema";
import { devJwks } from "@/lib/auth/dev-idp/keys";
import { syncOperatorAtSignIn } from "@/lib/auth/sign-in-sync";
import { controlFile } from "@/lib/cli/control-protocol";
import { openControlChannel } from "@/lib/server/control-channel";
import { startAppServer, type TestAppServer } from "../helpers/app-server";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-channel-"));
const dataDir = path.join(tmp, "data");
const pgliteDir = path.join(dataDir, "pglite");
let store: Store;
let app: TestAppServer;
let close: (() => void) | undefined;
let channel: { url: string; token: string };

beforeAll(async () => {
  const config = { kind: "pglite" as const, dataDir: pgliteDir };
  store = await openStore(config, { purpose: "channel test" });
  await migrateStore(store, config);
  app = await startAppServer(store.db, {
    dataDir,
    before: (baseUrl) => {
      const c = openControlChannel(store, pgliteDir, baseUrl.replace("localhost", "127.0.0.1"));
      close = c.close;
      return c.handle;
    },
  });
  channel = JSON.parse(fs.readFileSync(controlFile(pgliteDir), "utf8"));
  for (const [subject, role] of [
    ["op-admin-0001", "admin"],
    ["op-operator-0002", "operator"],
  ] as const) {
    await syncOperatorAtSignIn(store.db, { subject, displayName: subject, roles: [role] });
  }
}, 120_000);

afterAll(async () => {
  close?.();
  await app?.close();
  await store?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function send(argv: string[], idToken?: unknown): Promise<{ code: number; out: string; err: string }> {
  const res = await fetch(channel.url, {
    method: "POST",
    headers: { authorization: `Bearer ${channel.token}`, "content-type": "application/json" },
    body: JSON.stringify({ argv, idToken }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { code: number; out: string; err: string };
}

async function token(claims: JWTPayload, key: "real" | "other" = "real"): Promise<string> {
  const real = devJwks(process.env, "dev-oidc").keys[0]!;
  const jwk = key === "other" ? crypto.generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ format: "jwk" }) : real;
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: `${app.baseUrl}/oidc`, aud: "ctl", iat: now, exp: now + 600, ...claims })
    .setProtectedHeader({ alg: "RS256", kid: String(real.kid) })
    .sign(await importJWK(jwk as Parameters<typeof importJWK>[0], "RS256"));
}

const globalSwitch = async () => (await store.db.select().from(killSwitches).where(eq(killSwitches.scope, "global")))[0];

describe("control channel operator proof", () => {
  it("the secret alone engages only as the system actor and releases nothing", async () => {
    const on = await send(["kill-switch", "on", "--reason", "channel drill", "--json"]);
    expect(on.code).toBe(0);
    expect(JSON.parse(on.out).actor).toEqual({ type: "system", id: "ctl" });
    const off = await send(["kill-switch", "off", "--reason", "channel drill", "--as", "op-admin-0001"]);
    expect(off.code).toBe(1);
    expect(off.err).toMatch(/run "ctl login" first/);
    const revoke = await send(["revoke", "--pending", "--reason", "cleanup"]);
    expect(revoke.code).toBe(1);
    expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: null });
  });

  it("forged tokens are refused by the server; a wrong-typed token is a bad request", async () => {
    await send(["kill-switch", "on", "--reason", "channel drill"]);
    for (const forged of [
      await token({ sub: "op-admin-0001" }, "other"),
      await token({ sub: "op-admin-0001", aud: "console" }),
      await token({ sub: "op-admin-0001", iat: Math.floor(Date.now() / 1000) - 3600 }),
      "x.y.z",
    ]) {
      const r = await send(["kill-switch", "off", "--reason", "forged"], forged);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/run ctl login again/);
    }
    const res = await fetch(channel.url, {
      method: "POST",
      headers: { authorization: `Bearer ${channel.token}`, "content-type": "application/json" },
      body: JSON.stringify({ argv: ["kill-switch", "off", "--reason", "x"], idToken: { sub: "op-admin-0001" } }),
    });
    expect(res.status).toBe(400);
    const junk = await fetch(channel.url, {
      method: "POST",
      headers: { authorization: `Bearer ${channel.token}`, "content-type": "application/json" },
      body: "{not json",
    });
    expect(junk.status).toBe(400);
    expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: null });
  });

  it("two different proven operators release; the same one twice does not; --as must match the token", async () => {
    await send(["kill-switch", "on", "--reason", "channel drill"]);
    const operator = await token({ sub: "op-operator-0002" });
    const admin = await token({ sub: "op-admin-0001" });
    expect((await send(["kill-switch", "off", "--reason", "drill over", "--as", "op-admin-0001"], operator)).err).toMatch(
      /is not the signed-in operator/,
    );
    expect((await send(["kill-switch", "off", "--reason", "drill over"], operator)).code).toBe(0);
    const twice = await send(["kill-switch", "off", "--reason", "drill over"], operator);
    expect(twice.code).toBe(1);
    expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: "op-operator-0002" });
    const confirm = await send(["kill-switch", "off", "--reason", "drill over", "--json"], admin);
    expect(confirm.code).toBe(0);
    expect(await globalSwitch()).toMatchObject({ active: false, changedBy: "op-admin-0001" });
  });

  it("the server never falls back to its own session file", async () => {
    // Even if the server process's user is signed in, a forwarded command without a token is not.
    const file = path.join(tmp, "server-session.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        sessions: {
          [`${app.baseUrl}/oidc`]: {
            clientId: "ctl",
            idToken: await token({ sub: "op-admin-0001" }),
            obtainedAt: new Date().toISOString(),
          },
        },
      }),
      { mode: 0o600 },
    );
    process.env.CTL_SESSION_FILE = file;
    try {
      await send(["kill-switch", "on", "--reason", "channel drill"]);
      const off = await send(["kill-switch", "off", "--reason", "drill over"]);
      expect(off.code).toBe(1);
      expect(await globalSwitch()).toMatchObject({ active: true, releaseRequestedBy: null });
    } finally {
      delete process.env.CTL_SESSION_FILE;
    }
  });
});
