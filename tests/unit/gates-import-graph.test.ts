// The gates run from a production install (`npm ci --omit=dev`): nothing reachable from lib/gates
// or the `ctl gates` command may import from tests/, bench/ or a development dependency. Walks the
// real import graph from those entry points through every relative and "@/" import.
import fs from "node:fs";
import path from "node:path";
import { builtinModules } from "node:module";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']|[Rr]equire\(import\.meta\.url\)\.resolve\(\s*["']([^"'.][^"']*)["']/g;

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? path.join(root, spec.slice(2)) : path.resolve(path.dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, path.join(base, "index.ts")])
    if (fs.existsSync(c) && fs.statSync(c).isFile()) return c;
  return null;
}

function packageName(spec: string): string {
  const parts = spec.split("/");
  return spec.startsWith("@") ? `${parts[0]}/${parts[1]}` : parts[0]!;
}

function walk(entries: string[]) {
  const seen = new Set<string>();
  const packages = new Map<string, string>();
  const stack = [...entries];
  while (stack.length) {
    const file = stack.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const text = fs.readFileSync(file, "utf8");
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3] ?? m[4]!;
      if (spec.startsWith(".") || spec.startsWith("@/")) {
        const target = resolveLocal(file, spec);
        if (target && !target.endsWith(".json")) stack.push(target);
      } else if (!spec.startsWith("node:") && !builtinModules.includes(spec)) {
        packages.set(packageName(spec), path.relative(root, file));
      }
    }
  }
  return { files: [...seen].map((f) => path.relative(root, f)), packages };
}

describe("the gates' import graph", () => {
  const { files, packages } = walk([
    ...fs.readdirSync(path.join(root, "lib/gates")).map((f) => path.join(root, "lib/gates", f)),
    path.join(root, "lib/cli/commands/gates-command.ts"),
  ]);

  it("is not vacuous: it reaches the gates, the SDK clients, the browser driver and the store", () => {
    expect(files).toEqual(
      expect.arrayContaining(["lib/gates/run-gates.ts", "lib/gates/accessibility-gate.ts", "lib/audit/signing.ts", "db/client.ts"]),
    );
    expect([...packages.keys()]).toEqual(
      expect.arrayContaining(["@modelcontextprotocol/sdk", "@modelcontextprotocol/client", "playwright-core", "axe-core", "drizzle-orm"]),
    );
  });

  it("never reaches tests/ or bench/", () => {
    expect(files.filter((f) => f.startsWith("tests/") || f.startsWith("bench/"))).toEqual([]);
  });

  it("imports only production dependencies", () => {
    const dev = [...packages].filter(([name]) => !(name in pkg.dependencies)).map(([name, file]) => `${name} (from ${file})`);
    expect(dev).toEqual([]);
  });
});
