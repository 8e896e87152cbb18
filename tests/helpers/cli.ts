// Runs the real `ctl` in a child process, the way an operator or a CI job would.
import { spawn } from "node:child_process";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], env: Record<string, string | undefined> = {}): Promise<CliResult> {
  return startCli(args, env).done;
}

/** Starts `ctl` and lets the caller read its stderr while it runs (e.g. a device code to enter). */
export function startCli(
  args: string[],
  env: Record<string, string | undefined> = {},
): { stderr(): string; waitForStderr(pattern: RegExp): Promise<RegExpExecArray>; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [path.join(root, "node_modules/tsx/dist/cli.mjs"), path.join(root, "lib/cli/main.ts"), ...args], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiters: Array<() => void> = [];
  child.stdout.on("data", (d) => (stdout += d));
  child.stderr.on("data", (d) => {
    stderr += d;
    for (const w of waiters.splice(0)) w();
  });
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code: code ?? -1, stdout, stderr });
      for (const w of waiters.splice(0)) w();
    });
  });
  let exited = false;
  void done.then(() => (exited = true));
  const waitForStderr = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const m = pattern.exec(stderr);
      if (m) return m;
      if (exited) throw new Error(`ctl exited before printing ${pattern}: ${stderr}`);
      await new Promise<void>((resolve) => waiters.push(resolve));
    }
  };
  return { stderr: () => stderr, waitForStderr, done };
}
