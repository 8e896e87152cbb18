// The bundled provider keeps its state in the store: after a restart (a new provider on the same
// store, same port and keys), the browser is still signed in, the registered client still exists
// and its consent is still remembered. The table holds no id, code or client detail in clear.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rowsOf } from "@/db/client";
import { startAppServer, type TestAppServer } from "../helpers/app-server";
import { authorizationUrl, formsOf, ProviderBrowser, signIn } from "../helpers/provider-browser";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
let app: TestAppServer;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-idp-persist-"));
const EVIL = "https://evil.example/cb";

beforeAll(async () => {
  t = await createTestStore();
  app = await startAppServer(t.store.db, { dataDir });
});

afterAll(async () => {
  await app?.close();
  await t?.dispose();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("provider state in the store", () => {
  it("a restart keeps the session, the registered client and the consent; nothing readable is stored", async () => {
    const issuer = `${app.baseUrl}/oidc`;
    const browser = new ProviderBrowser();
    const consoleCallback = `${app.baseUrl}/api/auth/callback/oidc`;
    const start = await browser.go(authorizationUrl(issuer, { client_id: "console", redirect_uri: consoleCallback }));
    const signedIn = await signIn(browser, start, "alice", consoleCallback);
    const consoleCode = new URL(signedIn.url).searchParams.get("code")!;

    const reg = await fetch(`${issuer}/reg`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Persistent Evil", redirect_uris: [EVIL], token_endpoint_auth_method: "none" }),
    });
    const clientId = ((await reg.json()) as { client_id: string }).client_id;
    const evilAuth = () =>
      authorizationUrl(issuer, { client_id: clientId, redirect_uri: EVIL, scope: "openid mcp", resource: `${app.baseUrl}/api/mcp` });
    const ask = await browser.go(evilAuth(), {}, "https://evil.example");
    const allow = formsOf(ask.html, ask.url).find((f) => f.buttons.some((b) => b.value === "allow"))!;
    const allowed = await browser.submit(allow, { decision: "allow" }, "https://evil.example");
    const evilCode = new URL(allowed.url).searchParams.get("code")!;
    expect(allowed.url.startsWith(EVIL)).toBe(true);
    expect(evilCode).toMatch(/^[\w-]{20,}$/);

    // Restart: a new provider on the same store, port and data directory.
    const port = Number(new URL(app.baseUrl).port);
    await app.close();
    app = await startAppServer(t.store.db, { dataDir, port });
    // The HTTP client's pooled keep-alive sockets still point at the closed server: let them fail
    // once here (not in the assertions below).
    for (let i = 0; i < 3; i++)
      if (
        await fetch(`${issuer}/.well-known/openid-configuration`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;

    // Still signed in, client still registered, consent still remembered: straight back with a code.
    const after = await browser.go(evilAuth(), {}, "https://evil.example");
    expect(after.url.startsWith(EVIL)).toBe(true); // no consent page in between: the grant survived
    const code = new URL(after.url).searchParams.get("code");
    expect(code).toMatch(/^[\w-]{20,}$/);
    expect(code).not.toBe(evilCode);
    const list = await browser.go(`${issuer}/consents`);
    expect(list.status).toBe(200);
    expect(list.html).toContain("Persistent Evil");

    // Value-free at rest: ids, codes, session cookies, client names and redirect URIs are not
    // readable in any column.
    const dump = JSON.stringify(
      rowsOf(
        await t.store.db.execute(
          sql`select namespace, model, id_hash, encode(sealed, 'escape') as sealed, uid_hash, user_code_hash, grant_id_hash, account_hash from idp_records`,
        ),
      ),
    );
    expect(dump.length).toBeGreaterThan(100);
    for (const secret of [consoleCode, evilCode, clientId, "Persistent Evil", "evil.example", "user-alice-1001", ...browser.jar.values()]) {
      expect(dump, secret).not.toContain(secret);
    }
  });

  it("a tampered record (or one sealed with a retired key) is treated as absent: sign in again, never an error page", async () => {
    const issuer = `${app.baseUrl}/oidc`;
    const browser = new ProviderBrowser();
    const consoleCallback = `${app.baseUrl}/api/auth/callback/oidc`;
    const start = await browser.go(authorizationUrl(issuer, { client_id: "console", redirect_uri: consoleCallback }));
    await signIn(browser, start, "bob", consoleCallback);
    expect((await browser.go(`${issuer}/consents`)).status).toBe(200);
    // Flip the last byte of every session record (the GCM tag no longer matches).
    await t.store.db.execute(
      sql`update idp_records set sealed = overlay(sealed placing decode(lpad(to_hex(get_byte(sealed, length(sealed) - 1) # 1), 2, '0'), 'hex') from length(sealed)) where model = 'Session'`,
    );
    expect((await browser.go(`${issuer}/consents`)).status).toBe(401);
    const again = await browser.go(authorizationUrl(issuer, { client_id: "console", redirect_uri: consoleCallback }), {}, consoleCallback);
    expect(again.status).toBe(200);
    expect(again.html).toContain("Sign in to");
  });
});
