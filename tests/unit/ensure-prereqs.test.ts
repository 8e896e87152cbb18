// Issue 20: `npm test` makes sure Debian's Chromium is there before the browser layer. The decision
// is tested through injected probes and an injected command runner; the real browser is never removed.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ensurePrereqs } from "@/scripts/ensure-prereqs";
import { chromiumPrereq, decideChromium, DEFAULT_CHROMIUM, onPath, type ChromiumProbes } from "@/scripts/prereqs/chromium";
import { PrereqError, type Prereq } from "@/scripts/prereqs/prereq";

function probes(over: Partial<ChromiumProbes> & { files?: string[]; commands?: string[] }): ChromiumProbes {
  const files = new Set(over.files ?? []);
  const commands = new Set(over.commands ?? ["apt-get"]);
  return {
    chromiumPathEnv: over.chromiumPathEnv,
    exists: over.exists ?? ((f) => files.has(f)),
    isRoot: over.isRoot ?? (() => false),
    passwordlessSudo: over.passwordlessSudo ?? (() => false),
    hasCommand: over.hasCommand ?? ((c) => commands.has(c)),
  };
}

describe("decideChromium", () => {
  it("does nothing when the browser is at /usr/bin/chromium", () => {
    expect(decideChromium(probes({ files: [DEFAULT_CHROMIUM] }))).toEqual({ action: "present", path: DEFAULT_CHROMIUM });
  });

  it("uses CHROMIUM_PATH when set and present", () => {
    expect(decideChromium(probes({ chromiumPathEnv: "/opt/chromium/chrome", files: ["/opt/chromium/chrome"] }))).toEqual({
      action: "present",
      path: "/opt/chromium/chrome",
    });
  });

  it("installs with apt-get as root, update once then install", () => {
    const d = decideChromium(probes({ isRoot: () => true }));
    expect(d).toMatchObject({ action: "install", path: DEFAULT_CHROMIUM });
    if (d.action !== "install") throw new Error("unreachable");
    expect(d.argv).toEqual([
      ["apt-get", "update", "-qq"],
      ["apt-get", "install", "-y", "-qq", "chromium"],
    ]);
    expect(d.line.split("\n")).toHaveLength(1);
  });

  it("installs through non-interactive sudo when sudo needs no password", () => {
    const d = decideChromium(probes({ passwordlessSudo: () => true }));
    if (d.action !== "install") throw new Error(`expected install, got ${d.action}`);
    expect(d.argv.every((a) => a[0] === "sudo" && a[1] === "-n" && a[2] === "apt-get")).toBe(true);
    expect(d.line).toContain("sudo");
  });

  it("stops with the one command to run when the user cannot install", () => {
    const d = decideChromium(probes({}));
    expect(d.action).toBe("stop");
    if (d.action !== "stop") throw new Error("unreachable");
    expect(d.message).toContain("sudo apt-get update && sudo apt-get install -y chromium");
  });

  it("stops when there is no apt-get, even as root (never a downloaded browser build)", () => {
    const d = decideChromium(probes({ isRoot: () => true, commands: [] }));
    expect(d.action).toBe("stop");
  });

  it("stops on a CHROMIUM_PATH that does not exist instead of installing somewhere else", () => {
    const d = decideChromium(probes({ chromiumPathEnv: "/nope/chrome", isRoot: () => true, files: [DEFAULT_CHROMIUM] }));
    expect(d).toMatchObject({ action: "stop" });
    if (d.action === "stop") expect(d.message).toContain("CHROMIUM_PATH=/nope/chrome");
  });

  it("treats an empty CHROMIUM_PATH as unset", () => {
    expect(decideChromium(probes({ chromiumPathEnv: " ", files: [DEFAULT_CHROMIUM] }))).toEqual({
      action: "present",
      path: DEFAULT_CHROMIUM,
    });
  });
});

describe("chromiumPrereq.ensure", () => {
  it("runs the install commands, says so in one line, and checks the browser afterwards", async () => {
    let installed = false;
    const ran: string[][] = [];
    const lines: string[] = [];
    const p = chromiumPrereq(probes({ isRoot: () => true, exists: () => installed }), (argv) => {
      ran.push(argv);
      if (argv.includes("install")) installed = true;
      return 0;
    });
    await p.ensure((l) => lines.push(l));
    expect(ran.map((a) => a.slice(0, 2).join(" "))).toEqual(["apt-get update", "apt-get install"]);
    expect(lines).toHaveLength(1);
  });

  it("fails clearly when apt-get fails, and does not try to install after a failed update", async () => {
    const ran: string[][] = [];
    const p = chromiumPrereq(probes({ isRoot: () => true }), (argv) => (ran.push(argv), 100));
    await expect((async () => p.ensure(() => {}))()).rejects.toThrow(/apt-get update -qq" failed \(exit 100\)/);
    expect(ran).toHaveLength(1);
  });

  it("fails clearly when the package installed but the binary is still missing", async () => {
    const p = chromiumPrereq(probes({ isRoot: () => true }), () => 0);
    await expect((async () => p.ensure(() => {}))()).rejects.toBeInstanceOf(PrereqError);
  });

  it("never runs a command when the browser is present", async () => {
    const p = chromiumPrereq(probes({ files: [DEFAULT_CHROMIUM] }), () => {
      throw new Error("must not run");
    });
    await p.ensure(() => {
      throw new Error("must not speak");
    });
  });
});

describe("onPath (the real apt-get/sudo probe) with a fake PATH", () => {
  it("finds only executables in the given directories", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prereq-path-"));
    try {
      fs.writeFileSync(path.join(dir, "apt-get"), "#!/bin/sh\nexit 0\n", { mode: 0o755 });
      fs.writeFileSync(path.join(dir, "sudo"), "not executable", { mode: 0o644 });
      expect(onPath("apt-get", dir)).toBe(true);
      expect(onPath("sudo", dir)).toBe(false);
      expect(onPath("apt-get", path.join(dir, "empty"))).toBe(false);
      expect(onPath("apt-get", "")).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("ensurePrereqs", () => {
  it("stops at the first missing prerequisite with its message and runs none after it", async () => {
    const seen: string[] = [];
    const mk = (name: string, fail: boolean): Prereq => ({
      name,
      ensure() {
        seen.push(name);
        if (fail) throw new PrereqError(`run: install ${name}`);
      },
    });
    const lines: string[] = [];
    expect(await ensurePrereqs([mk("a", false), mk("b", true), mk("c", false)], (l) => lines.push(l))).toBe(false);
    expect(seen).toEqual(["a", "b"]);
    expect(lines).toEqual(["ensure-prereqs: b: run: install b"]);
  });

  it("lets an unexpected error through instead of hiding it", async () => {
    await expect(
      ensurePrereqs(
        [
          {
            name: "x",
            ensure: () => {
              throw new TypeError("bug");
            },
          },
        ],
        () => {},
      ),
    ).rejects.toThrow(TypeError);
  });
});

describe("scripts/ensure-prereqs.ts as npm test runs it", () => {
  const run = (env: Record<string, string>) =>
    spawnSync(process.execPath, [path.resolve("node_modules/tsx/dist/cli.mjs"), path.resolve("scripts/ensure-prereqs.ts")], {
      env: { ...process.env, ...env },
      encoding: "utf8",
    });

  it("exits 1 with one line naming the problem when the configured browser is missing", () => {
    const r = run({ CHROMIUM_PATH: "/nonexistent/chromium" });
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split("\n")).toEqual([
      expect.stringContaining("ensure-prereqs: chromium: CHROMIUM_PATH=/nonexistent/chromium does not exist"),
    ]);
  });

  it("exits 0 and says nothing when the browser is there", () => {
    const r = run({ CHROMIUM_PATH: process.execPath }); // any existing executable stands in for the browser
    expect(r.status).toBe(0);
    expect(r.stderr).toBe("");
  });
});
