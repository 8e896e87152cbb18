// `ctl --version`, per-command `--help` (formatted by commander from one table, a declared
// control's from its declaration), and progress on stderr for the long commands only when stderr
// is a terminal: under a pseudo-terminal (util-linux `script`) `seed-demo` draws a bar; through a
// pipe it prints exactly what it printed before (no bar on stderr, one JSON line on stdout).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";

const root = path.resolve(import.meta.dirname, "../..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "eg-ctl-help-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("ctl --version and --help", () => {
  it("prints the package version", async () => {
    const version = (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
    for (const flag of ["--version", "-V"]) {
      const r = await runCli([flag]);
      expect(r).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
    }
  });

  it("prints one command's help and exits 0; an unknown command's help is a usage error", async () => {
    const ks = await runCli(["kill-switch", "--help"]);
    expect(ks.code).toBe(0);
    expect(ks.stdout).toMatch(/^Usage: ctl kill-switch status \| on \| off \[--scope /);
    expect(ks.stdout).toContain("break-glass");
    const sub = await runCli(["audit", "export", "-h"]);
    expect(sub.code).toBe(0);
    expect(sub.stdout).toMatch(/^Usage: ctl audit export \(--out DIR \| --tar FILE\)/);
    const pause = await runCli(["flows", "pause", "--help"]);
    expect(pause.code).toBe(0);
    expect(pause.stdout).toMatch(
      /^Usage: ctl flows pause FLOW --minutes N --reason TEXT \[--as YOURSELF\] \[--json\] \(needs ctl login\)\n\nstop one flow for N minutes/,
    );
    const flowsHelp = await runCli(["flows", "--help"]);
    expect(flowsHelp.stdout).toMatch(/^Usage: ctl flows list \| canary/);
    const unknown = await runCli(["no-such-command", "--help"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('ctl: unknown command "no-such-command"; run "ctl help" for the list\n');
    // Without --help, the old usage errors stand.
    expect((await runCli(["kill-switch"])).code).toBe(2);
    // A "--help" after "--" is an argument, not a request for help.
    expect((await runCli(["check-url", "--", "--help"])).code).not.toBe(0);
  });
});

describe("progress on stderr", () => {
  it("seed-demo draws a bar only when stderr is a terminal, and --json output is unchanged", async () => {
    const piped = await runCli(["seed-demo", "--records", "1500", "--json"], { DATABASE_URL: "", DATA_DIR: path.join(tmp, "piped") });
    expect(piped.code).toBe(0);
    // (Whatever else a library may warn about on stderr, there is no bar and no terminal control.)
    expect(piped.stderr).not.toContain("seeding");
    expect(piped.stderr).not.toContain("\u001b[");
    expect(JSON.parse(piped.stdout)).toMatchObject({ ok: true, seeded: true, records: 1500 });
    expect(piped.stdout.split("\n")).toHaveLength(2);

    const cmd = [
      process.execPath,
      path.join(root, "node_modules/tsx/dist/cli.mjs"),
      path.join(root, "lib/cli/main.ts"),
      "seed-demo",
      "--records",
      "1500",
      "--json",
    ]
      .map((a) => `'${a}'`)
      .join(" ");
    const tty = spawnSync("script", ["-qec", cmd, "/dev/null"], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: path.join(tmp, "tty") },
      encoding: "utf8",
    });
    expect(tty.status).toBe(0);
    expect(tty.stdout).toMatch(/seeding \[[^\]]*\] \d+% \d+\/1500 records/);
    expect(tty.stdout).toContain('"ok":true,"seeded":true,"records":1500');
  });
});
