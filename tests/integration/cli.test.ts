// The real `ctl` in a child process: exit codes, one-line errors, nothing partial left behind.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeJwt, decodeProtectedHeader } from "jose";
import { lockDataDir } from "@/db/store-lock";
import { runCli } from "../helpers/cli";
import { createPostgresDatabase, requirePostgresInCi } from "../helpers/test-store";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-cli-"));
const root = path.resolve(import.meta.dirname, "../..");
let storeEnv: Record<string, string | undefined>;
let dropDb: (() => Promise<void>) | undefined;

beforeAll(async () => {
  requirePostgresInCi();
  // The CLI runs against the same kind of store as the rest of the suite.
  if (process.env.DATABASE_URL) {
    const created = await createPostgresDatabase(process.env.DATABASE_URL);
    dropDb = created.drop;
    storeEnv = { DATABASE_URL: created.url, DATA_DIR: tmp };
  } else {
    storeEnv = { DATABASE_URL: "", DATA_DIR: path.join(tmp, "data") };
  }
});

afterAll(async () => {
  await dropDb?.();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const oneLine = (s: string) => s.trim().split("\n").length === 1;

describe("ctl", () => {
  it("migrates, seeds once, exports and verifies", async () => {
    expect((await runCli(["migrate", "--json"], storeEnv)).code).toBe(0);
    const seeded = await runCli(["seed-demo", "--records", "300", "--json"], storeEnv);
    expect(seeded.code).toBe(0);
    expect(JSON.parse(seeded.stdout)).toMatchObject({ ok: true, seeded: true, records: 300 });

    const again = await runCli(["seed-demo"], storeEnv);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^ctl: store already holds data/);
    expect((await runCli(["seed-demo", "--if-empty", "--json"], storeEnv)).stdout).toContain('"seeded":false');

    const out = path.join(tmp, "evidence-csv");
    const exported = await runCli(["audit", "export", "--out", out, "--format", "csv", "--json"], storeEnv);
    expect(exported.code).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(["audit.csv", "manifest.json", "manifest.json.sig", "signer.pub.pem"]);
    const verified = await runCli(["audit", "verify", out, "--json"], {});
    expect(verified.code).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, count: JSON.parse(exported.stdout).count });

    // A changed CSV record is named by its line.
    const csvPath = path.join(out, "audit.csv");
    const lines = fs.readFileSync(csvPath, "utf8").split("\n");
    lines[3] = lines[3]!.replace("op-", "xx-");
    fs.writeFileSync(csvPath, lines.join("\n"));
    const broken = await runCli(["audit", "verify", out], {});
    expect(broken.code).toBe(1);
    expect(broken.stdout).toMatch(/^FAILED: line 4: entry \d+ was changed/);

    const store = await runCli(["audit", "verify-store", "--json"], storeEnv);
    expect(store.code).toBe(0);
    expect(JSON.parse(store.stdout)).toMatchObject({ ok: true });
  });

  it("refuses to overwrite an existing export and leaves it intact", async () => {
    const out = path.join(tmp, "evidence-twice");
    expect((await runCli(["audit", "export", "--out", out], storeEnv)).code).toBe(0);
    const before = fs.readFileSync(path.join(out, "manifest.json"), "utf8");
    const second = await runCli(["audit", "export", "--out", out], storeEnv);
    expect(second.code).toBe(1);
    expect(second.stderr).toMatch(/already holds an export/);
    expect(fs.readFileSync(path.join(out, "manifest.json"), "utf8")).toBe(before);
  });

  it.each([
    [["frobnicate"], 2, /unknown command "frobnicate"/],
    [["audit", "export"], 2, /give exactly one of --out DIR or --tar FILE/],
    [["audit", "export", "--out", "/tmp/x", "--tar", "/tmp/x.tar"], 2, /give exactly one of --out DIR or --tar FILE/],
    [["audit", "export", "--tar", "-"], 2, /--tar needs a file name/],
    [["audit", "export", "--out", "/tmp/x", "--format", "xml"], 2, /--format must be ndjson or csv/],
    [["audit", "export", "--out", "/tmp/x", "--from", "yesterday"], 2, /--from must be an ISO 8601/],
    [["seed-demo", "--records", "many"], 2, /--records must be a whole number/],
    [["audit", "verify"], 2, /exactly one directory/],
    [["audit", "verify", "/nonexistent/evidence"], 2, /cannot read \/nonexistent\/evidence: ENOENT/],
  ])("%j exits %i with a one-line error", async (args, code, message) => {
    const r = await runCli(args as string[], storeEnv);
    expect(r.code).toBe(code);
    expect(r.stderr).toMatch(message as RegExp);
    expect(oneLine(r.stderr)).toBe(true);
  });

  it("mints a short-lived MCP token from the development provider only", async () => {
    const env = { ...storeEnv, APP_URL: "http://localhost:4555", OIDC_ISSUER: "" };
    const r = await runCli(["token", "--subject", "user-alice-1001", "--ttl", "120", "--json"], env);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    const claims = decodeJwt(out.access_token);
    expect(claims).toMatchObject({
      iss: "http://localhost:4555/oidc",
      aud: "http://localhost:4555/api/mcp",
      sub: "user-alice-1001",
      tenant: "acme",
      scope: "mcp",
    });
    expect(claims.exp! - claims.iat!).toBe(120);
    expect(decodeProtectedHeader(out.access_token).typ).toBe("at+jwt");
    const other = await runCli(["token", "--subject", "someone", "--tenant", "globex"], env);
    expect(decodeJwt(other.stdout.trim())).toMatchObject({ sub: "someone", tenant: "globex" });

    const refused = await runCli(["token", "--subject", "user-alice-1001"], {
      ...env,
      OIDC_ISSUER: "https://login.example.com",
      OIDC_CLIENT_ID: "x",
      OIDC_CLIENT_SECRET: "y",
    });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/only works with the bundled development identity provider/);
    expect(refused.stdout).toBe("");
    const usage = await runCli(["token"], env);
    expect(usage.code).toBe(2);
    expect((await runCli(["token", "--subject", "stranger"], env)).stderr).toMatch(/--tenant is required/);
  });

  it("refuses to expose the development identity provider on a network interface", async () => {
    const r = await runCli(["serve", "--hostname", "0.0.0.0", "--port", "4999"], { ...storeEnv, OIDC_ISSUER: "" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/refusing to serve the development identity provider on 0\.0\.0\.0/);
  });

  it("exports a .tar and verifies it as a file, from stdin and extracted; names tampering", async () => {
    for (const format of ["ndjson", "csv"] as const) {
      const file = path.join(tmp, `evidence-${format}.tar`);
      const exported = await runCli(["audit", "export", "--tar", file, "--format", format, "--json"], storeEnv);
      expect(exported.code, exported.stderr).toBe(0);
      expect(JSON.parse(exported.stdout)).toMatchObject({ ok: true, file });
      expect(fs.existsSync(`${file}.partial`)).toBe(false);
      const verified = await runCli(["audit", "verify", file, "--json"], {});
      expect(verified.code, verified.stdout).toBe(0);
      expect(JSON.parse(verified.stdout)).toMatchObject({ ok: true, count: JSON.parse(exported.stdout).count });
      const stdin = spawnSync(
        process.execPath,
        [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "lib/cli/main.ts"), "audit", "verify", "-"],
        { cwd: root, input: fs.readFileSync(file), encoding: "utf8" },
      );
      expect(stdin.status, stdin.stderr).toBe(0);
      expect(stdin.stdout).toMatch(/^OK: \d+ entries/);
      const dir = fs.mkdtempSync(path.join(tmp, `x-${format}-`));
      execFileSync("tar", ["-xf", file, "-C", dir]);
      expect((await runCli(["audit", "verify", dir], {})).code).toBe(0);
      // A second export onto the same file is refused; the file stays as it was.
      const before = fs.readFileSync(file);
      const again = await runCli(["audit", "export", "--tar", file, "--format", format], storeEnv);
      expect(again.code).toBe(1);
      expect(again.stderr).toMatch(/already exists/);
      expect(fs.readFileSync(file).equals(before)).toBe(true);
    }
    // One changed byte in the data: the line is named.
    const file = path.join(tmp, "evidence-ndjson.tar");
    const bytes = fs.readFileSync(file);
    const at = bytes.indexOf('"actorId":"');
    bytes[at + 11] = bytes[at + 11]! ^ 1;
    const broken = path.join(tmp, "broken.tar");
    fs.writeFileSync(broken, bytes);
    const r = await runCli(["audit", "verify", broken], {});
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAILED: line 1: /);
    // Not an archive at all.
    fs.writeFileSync(path.join(tmp, "not.tar"), "hello");
    const notTar = await runCli(["audit", "verify", path.join(tmp, "not.tar")], {});
    expect(notTar.code).toBe(1);
    expect(notTar.stdout).toMatch(/^FAILED: not an evidence archive: /);
  });

  it("refuses a kill switch whose scope names nothing (a typo), in one line, and engages nothing", async () => {
    expect((await runCli(["migrate", "--json"], storeEnv)).code).toBe(0);
    for (const [scope, message] of [
      ["workflow:generate_reprot", /no workflow is called "generate_reprot"/],
      ["flow:genrate_report:claude-code", /no workflow is called "genrate_report"/],
      ["upstream:nosuch", /no upstream is registered as "nosuch"/],
    ] as const) {
      const r = await runCli(["kill-switch", "on", "--scope", scope, "--reason", "typo drill"], storeEnv);
      expect(r.code, scope).toBe(1);
      expect(r.stderr).toMatch(message);
      expect(oneLine(r.stderr)).toBe(true);
    }
    // A known workflow with a profile no client has used yet is a valid, pre-emptive switch.
    const ok = await runCli(
      ["kill-switch", "on", "--scope", "flow:generate_report:not-seen-yet", "--reason", "pre-emptive", "--expires-in", "1", "--json"],
      storeEnv,
    );
    expect(ok.code, ok.stderr).toBe(0);
    const status = JSON.parse((await runCli(["kill-switch", "status", "--json"], storeEnv)).stdout) as { active: Array<{ scope: string }> };
    expect(status.active.map((s) => s.scope)).toContain("flow:generate_report:not-seen-yet");
    expect(status.active.map((s) => s.scope)).not.toContain("workflow:generate_reprot");
  });

  it("reports a malformed manifest", async () => {
    const dir = path.join(tmp, "malformed");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "manifest.json"), "{ not json");
    const r = await runCli(["audit", "verify", dir], {});
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^FAILED: manifest\.json is malformed \(not JSON\)/);
    fs.writeFileSync(path.join(dir, "manifest.json"), JSON.stringify({ kind: "elicitation-gateway.audit-export" }));
    expect((await runCli(["audit", "verify", dir], {})).stdout).toMatch(/missing or invalid fields/);
  });

  it("reports an unreachable database in one line and writes nothing", async () => {
    const out = path.join(tmp, "unreachable");
    const r = await runCli(["audit", "export", "--out", out], { DATABASE_URL: "postgres://postgres:secret-pw@127.0.0.1:1/nothing" });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ctl: cannot reach PostgreSQL at postgres:\/\/postgres:\*\*\*@127\.0\.0\.1:1\/nothing/);
    expect(r.stderr).not.toContain("secret-pw");
    expect(oneLine(r.stderr)).toBe(true);
    expect(fs.existsSync(path.join(out, "manifest.json"))).toBe(false);
  });

  it("reports an unwritable output directory", async () => {
    const blocker = path.join(tmp, "a-file");
    fs.writeFileSync(blocker, "");
    const r = await runCli(["audit", "export", "--out", path.join(blocker, "sub")], storeEnv);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^ctl: cannot write to/);
  });

  it("tells a second process that the embedded store is busy, without hanging", async () => {
    const dataDir = path.join(tmp, "busy");
    const release = await lockDataDir(path.join(dataDir, "pglite"), "test holder");
    try {
      const r = await runCli(["migrate"], { DATABASE_URL: "", DATA_DIR: dataDir });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`in use by pid ${process.pid} \\(test holder`));
      expect(oneLine(r.stderr)).toBe(true);
    } finally {
      await release();
    }
    expect((await runCli(["migrate"], { DATABASE_URL: "", DATA_DIR: dataDir })).code).toBe(0);
  });
});
