// Debian's Chromium for the browser tests (never a downloaded browser build): at CHROMIUM_PATH, or
// /usr/bin/chromium. When it is missing and the machine can install packages (root, or passwordless
// sudo, and apt-get), it is installed with apt-get; otherwise the run stops with the command to run.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PrereqError, type Prereq } from "./prereq";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/** What the decision looks at; injected so the logic is testable without touching the real browser. */
export interface ChromiumProbes {
  chromiumPathEnv: string | undefined;
  exists(file: string): boolean;
  isRoot(): boolean;
  passwordlessSudo(): boolean;
  hasCommand(name: string): boolean;
}

export type ChromiumDecision =
  | { action: "present"; path: string }
  | { action: "install"; path: string; argv: string[][]; line: string }
  | { action: "stop"; message: string };

export function decideChromium(p: ChromiumProbes): ChromiumDecision {
  const configured = p.chromiumPathEnv?.trim() || undefined;
  const target = configured ?? DEFAULT_CHROMIUM;
  if (p.exists(target)) return { action: "present", path: target };
  // An explicit CHROMIUM_PATH that is wrong is a configuration mistake: installing Debian's package
  // would not put a browser there, so say so instead of installing something that does not help.
  if (configured)
    return {
      action: "stop",
      message: `CHROMIUM_PATH=${configured} does not exist: point it at a Chromium binary, or unset it to use ${DEFAULT_CHROMIUM}`,
    };
  const root = p.isRoot();
  const sudo = !root && p.passwordlessSudo();
  const prefix = root ? [] : ["sudo", "-n"];
  if (p.hasCommand("apt-get") && (root || sudo)) {
    return {
      action: "install",
      path: target,
      argv: [
        [...prefix, "apt-get", "update", "-qq"],
        [...prefix, "apt-get", "install", "-y", "-qq", "chromium"],
      ],
      line: `Chromium is missing at ${target}: installing Debian's chromium package with apt-get${sudo ? " (via sudo)" : ""}`,
    };
  }
  const cmd = p.hasCommand("apt-get")
    ? "sudo apt-get update && sudo apt-get install -y chromium"
    : "install Debian's chromium package (apt-get install -y chromium)";
  return {
    action: "stop",
    message: `Chromium not found at ${target} and this user cannot install it. Run: ${cmd}  (or set CHROMIUM_PATH to a Chromium binary)`,
  };
}

export function onPath(name: string, envPath = process.env.PATH ?? ""): boolean {
  return envPath.split(path.delimiter).some((dir) => {
    if (!dir) return false;
    try {
      fs.accessSync(path.join(dir, name), fs.constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

export const realProbes: ChromiumProbes = {
  chromiumPathEnv: process.env.CHROMIUM_PATH,
  exists: (file) => fs.existsSync(file),
  isRoot: () => process.getuid?.() === 0,
  passwordlessSudo: () => onPath("sudo") && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0,
  hasCommand: (name) => onPath(name),
};

/** Runs one install command; returns its exit status. Injected in tests. */
export type CommandRunner = (argv: string[]) => number | null;

const runCommand: CommandRunner = (argv) =>
  spawnSync(argv[0]!, argv.slice(1), { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } })
    .status;

export function chromiumPrereq(probes: ChromiumProbes = realProbes, run: CommandRunner = runCommand): Prereq {
  return {
    name: "chromium",
    ensure(say) {
      const d = decideChromium(probes);
      if (d.action === "present") return;
      if (d.action === "stop") throw new PrereqError(d.message);
      say(d.line);
      for (const argv of d.argv) {
        const status = run(argv);
        if (status !== 0) throw new PrereqError(`"${argv.join(" ")}" failed (exit ${status ?? "killed"}); run it by hand to see why`);
      }
      if (!probes.exists(d.path))
        throw new PrereqError(`apt-get installed chromium but ${d.path} is still missing; set CHROMIUM_PATH to the installed binary`);
    },
  };
}
