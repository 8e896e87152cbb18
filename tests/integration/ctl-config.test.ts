// `ctl config check` through the real CLI process: the effective configuration with secrets
// masked, exit 1 with the problem named, typo warnings; and `ctl serve` refusing a bad setting in
// one line before it opens the store.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SETTINGS } from "@/lib/config/settings";
import { runCli } from "../helpers/cli";

// A clean slate: the CLI child inherits the test process's environment, so every setting is
// blanked first (blank is unset) and only what a test names is set.
const blank = Object.fromEntries(Object.keys(SETTINGS).map((name) => [name, ""]));
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "ctl-config-"));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const CANARY = "CANARY-config-4b1e9d2f0a7c3e5b8d6f";
const production = {
  APP_ENV: "production",
  APP_URL: "https://gw.example.com",
  OIDC_ISSUER: "https://id.example.com",
  OIDC_CLIENT_ID: "console",
  OIDC_CLIENT_SECRET: `${CANARY}-oidc`,
  SESSION_SECRET: `${CANARY}-session`,
  CONNECT_NONCE_KEY: `${CANARY}-nonce`,
  VAULT_KEY: randomBytes(32).toString("base64"),
  MCP_REQUEST_STATE_KEY: randomBytes(32).toString("base64"),
  AUDIT_SIGNING_KEY: generateKeyPairSync("ed25519").privateKey.export({ format: "pem", type: "pkcs8" }).toString(),
  DATABASE_URL: `postgres://app:${CANARY}-db@db.internal:5432/gw`,
  METRICS_TOKEN: `${CANARY}-metrics`,
};
const run = (args: string[], env: Record<string, string>) => runCli(args, { ...blank, DATA_DIR: dataDir, ...env });

describe("ctl config check", () => {
  it("prints a complete production configuration with every secret masked, and exits 0", async () => {
    const r = await run(["config", "check"], production);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^configuration ok$/m);
    expect(r.stdout).toMatch(/^APP_ENV +"production"$/m);
    expect(r.stdout).toMatch(/^SESSION_SECRET +\(set\)$/m);
    expect(r.stdout).toMatch(/^DATABASE_URL +postgres:\/\/app:\*\*\*@db\.internal:5432\/gw$/m);
    expect(r.stdout).toMatch(/^PORT +default: 3000$/m);
    expect(r.stdout).not.toContain(CANARY);
    expect(r.stdout).not.toContain(production.VAULT_KEY);
    expect(r.stdout).not.toContain("PRIVATE KEY");
  });

  it("exits 1 naming a bad value, lists every problem, and still masks secrets", async () => {
    const r = await run(["config", "check"], { ...production, FLOW_NEW_STAGE: "100%", SESSION_SECRET: "short-CANARY" });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^problem: FLOW_NEW_STAGE must be "off" or "canary:N" with N a whole number from 0 to 100 \(got "100%"\)$/m);
    expect(r.stdout).toMatch(/^problem: SESSION_SECRET is too short: use at least 32 random characters$/m);
    expect(r.stdout).toMatch(/^2 problem\(s\)/m);
    expect(r.stderr.trim().split("\n")).toHaveLength(1);
    expect(r.stderr).toMatch(/^ctl: .*\(and 1 more\)$/m);
    expect(r.stdout + r.stderr).not.toContain("short-CANARY");
    expect(r.stdout + r.stderr).not.toContain(CANARY);
  });

  it("names what production is missing", async () => {
    const r = await run(["config", "check", "--json"], { APP_ENV: "production" });
    expect(r.code).toBe(1);
    const report = JSON.parse(r.stdout) as { problems: Array<{ variable: string }>; settings: Array<{ name: string; source: string }> };
    expect(report.problems.map((p) => p.variable).sort()).toEqual([
      "AUDIT_SIGNING_KEY",
      "CONNECT_NONCE_KEY",
      "MCP_REQUEST_STATE_KEY",
      "OIDC_ISSUER",
      "SESSION_SECRET",
      "VAULT_KEY",
    ]);
    expect(report.settings.map((s) => s.name)).toEqual(Object.keys(SETTINGS));
    expect(report.settings.find((s) => s.name === "APP_ENV")).toMatchObject({ source: "environment" });
  });

  it("warns about a variable that looks like a setting but is not one (a typo), without failing", async () => {
    const r = await run(["config", "check"], { FLOW_NEW_STAG: "canary:5", MCP_RATE_LIMIT_PER_SUBJET: "5" });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^warning: FLOW_NEW_STAG is set but is not a setting of this app \(a typo\?\); it is ignored$/m);
    expect(r.stdout).toMatch(/^warning: MCP_RATE_LIMIT_PER_SUBJET is set/m);
  });

  it("refuses the retired FLOW_DEFAULT_CANARY_PERCENT and an unreadable signing key file", async () => {
    const r = await run(["config", "check"], {
      FLOW_DEFAULT_CANARY_PERCENT: "100%",
      AUDIT_SIGNING_KEY_FILE: path.join(dataDir, "missing.pem"),
    });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^problem: FLOW_DEFAULT_CANARY_PERCENT is no longer read/m);
    expect(r.stdout).toMatch(/^problem: AUDIT_SIGNING_KEY_FILE names a file this process cannot read/m);
  });

  it("is a usage error without the check subcommand", async () => {
    expect((await run(["config"], {})).code).toBe(2);
    expect((await run(["config", "show"], {})).code).toBe(2);
  });
});

describe("ctl serve with a bad setting", () => {
  it("stops at once with one line naming the variable, before it opens the store", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ctl-config-serve-"));
    try {
      const r = await runCli(["serve"], { ...blank, DATA_DIR: dir, FLOW_NEW_STAGE: "100%" });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe("");
      expect(r.stderr).toMatch(
        /^ctl: ConfigError: FLOW_NEW_STAGE must be "off" or "canary:N" with N a whole number from 0 to 100 \(got "100%"\)\n$/,
      );
      expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
