// Demo code only where the demo starts it. The demo (lib/demo/: seed, accounts, clients, the demo
// provider's registry row, the demo upstream) and the development identity provider's demo
// downstream ("Demo Git", lib/auth/dev-idp/downstream.ts) are imported only by each other, by the
// development identity provider, and by the places that start them: the `ctl` commands that seed or
// serve the demo, and the server that mounts the development providers when no OIDC_ISSUER is set.
// Everything else (the MCP server, the connect flow, the policy, the gates, the workflows) reads
// providers and workflows from the registry and the configuration. Every static and dynamic import
// of app/, components/, db/ and lib/ is checked, relative ones included.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const IMPORT =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|(?:^|\n)\s*import\s+["']([^"']+)["']/g;

const isDemo = (file: string) => file.startsWith("lib/demo/") || file === "lib/auth/dev-idp/downstream.ts";

// The demo's starting points, each with why it may start it.
const STARTS: Record<string, string> = {
  "lib/cli/commands/serve-command.ts": "`ctl demo` (npm run demo) seeds, refreshes the demo provider and starts the demo upstream",
  "lib/cli/commands/store-commands.ts": "`ctl seed-demo` seeds the demo",
  "lib/server/app-routes.ts": "mounts the development providers (Demo Git among them) when OIDC_ISSUER is not set",
};
const mayImportDemo = (file: string) => isDemo(file) || file.startsWith("lib/auth/dev-idp/") || file in STARTS;

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.posix.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) ? [rel] : [];
  });
}

function resolveLocal(from: string, spec: string): string | null {
  const base = spec.startsWith("@/") ? spec.slice(2) : path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const c of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`])
    if (fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile()) return c;
  return null;
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return [...text.matchAll(IMPORT)]
    .map((m) => m[1] ?? m[2] ?? m[3]!)
    .filter((spec) => spec.startsWith(".") || spec.startsWith("@/"))
    .map((spec) => resolveLocal(file, spec))
    .filter((f): f is string => f !== null);
}

const files = ["app", "components", "db", "lib"].flatMap(sourceFiles);
const edges = files.flatMap((file) => importsOf(file).map((to) => ({ from: file, to })));

describe("demo code only where the demo starts it", () => {
  it("is not vacuous: the demo exists and its starting points do import it", () => {
    expect(files.filter(isDemo)).toEqual(
      expect.arrayContaining(["lib/demo/seed.ts", "lib/demo/provider.ts", "lib/demo/upstream.ts", "lib/auth/dev-idp/downstream.ts"]),
    );
    for (const start of Object.keys(STARTS))
      expect(
        edges.some((e) => e.from === start && isDemo(e.to)),
        start,
      ).toBe(true);
  });

  it("nothing else in app/, components/, db/ or lib/ imports a demo module", () => {
    const offending = edges.filter((e) => isDemo(e.to) && !mayImportDemo(e.from)).map((e) => `${e.from} -> ${e.to}`);
    expect(offending).toEqual([]);
  });

  it("the MCP servers, the connect flow, the flow fingerprints and the workflows are among the files checked", () => {
    expect(files).toEqual(
      expect.arrayContaining([
        "lib/mcp/server.ts",
        "lib/mcp/modern/endpoint.ts",
        "lib/connect/registry.ts",
        "lib/policy/resolve-flow.ts",
        "lib/workflows/list-repositories.ts",
        "lib/gates/client-variants.ts",
      ]),
    );
  });
});
