// The runtime: the server's modules (Next.js, the bundled identity provider, next-auth, the MCP
// SDK, the store) load on this Node without a deprecation or experimental warning from the
// project's own dependencies. `npm test` runs this layer on the machine's Node and again on Node 24
// (scripts/test-node24.ts), so both are proven. On Node 20, which reached end of life on 2026-04-30,
// oidc-provider's own "Unsupported runtime" notice is the one line expected.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const major = Number(process.versions.node.split(".")[0]);

function run(script: string, env: Record<string, string>): Promise<{ code: number; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), script], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let stdout = "";
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (c) => resolve({ code: c ?? -1, stderr, stdout }));
  });
}

describe(`Node ${process.versions.node}`, () => {
  it("is a version the package declares it supports", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { engines: { node: string } };
    expect(pkg.engines.node).toBe("^20.9.0 || ^22.11.0 || >=24.0.0");
    expect([20, 22, 24].includes(major) || major > 24).toBe(true);
  });

  it("loads the server's modules without a deprecation or experimental warning", async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "node-runtime-"));
    try {
      const r = await run(path.join(root, "tests/helpers/load-server-modules.ts"), {
        DATA_DIR: dataDir,
        APP_ENV: "development",
        APP_URL: "http://localhost:3999",
        OIDC_ISSUER: "",
        NODE_OPTIONS: "--trace-deprecation",
      });
      expect(r.stdout.trim()).toBe("loaded");
      expect(r.code).toBe(0);
      expect(r.stderr).not.toMatch(/DeprecationWarning|ExperimentalWarning|\[DEP\d+\]/);
      const lines = r.stderr.split("\n").filter((l) => l.trim());
      if (major >= 22) expect(lines).toEqual([]);
      else expect(lines.every((l) => /oidc-provider WARNING: Unsupported runtime/.test(l))).toBe(true);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
