// The README's configuration table is checked against the settings table: every setting is in it
// with the same default, and it lists nothing else. And every variable the app's source reads is a
// setting (or a platform variable named as such), so a new one cannot bypass the schema unseen.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { PLATFORM_VARIABLES, RETIRED, SETTINGS, type SettingSpec } from "@/lib/config/settings";

const root = path.resolve(import.meta.dirname, "../..");

/** The rows of the README's "## Configuration" table: every name in a row, and the default of each. */
function readmeDefaults(): Map<string, string> {
  const readme = fs.readFileSync(path.join(root, "README.md"), "utf8");
  const start = readme.indexOf("| variable | default | meaning |", readme.indexOf("## Configuration"));
  expect(start, "README has a configuration table").toBeGreaterThan(0);
  const rows = readme.slice(start).split("\n\n")[0]!.split("\n").slice(2);
  const out = new Map<string, string>();
  for (const row of rows) {
    const [names, defaults] = row.replace(/^\| /, "").split(" | ");
    const list = [...names!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!);
    expect(list.length, row).toBeGreaterThan(0);
    // "`600`, `6000`" gives one default per name; anything else is the one default of them all.
    const tokens = /^`[^`]*`(, `[^`]*`)*$/.test(defaults!) ? [...defaults!.matchAll(/`([^`]*)`/g)].map((m) => m[1]!) : [defaults!];
    list.forEach((name, i) => {
      expect(out.has(name), `${name} is in the README table once`).toBe(false);
      out.set(name, tokens.length === list.length ? tokens[i]! : tokens[0]!);
    });
  }
  return out;
}

function documentedDefault(spec: SettingSpec<unknown>): string {
  return spec.defaultText ?? String(spec.default);
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourceFiles(p);
    return /\.(ts|tsx)$/.test(e.name) && !/\.test\.tsx?$/.test(e.name) ? [p] : [];
  });
}

describe("configuration documentation", () => {
  it("lists exactly the settings of the schema, with the schema's defaults", () => {
    const readme = readmeDefaults();
    expect([...readme.keys()].sort()).toEqual(Object.keys(SETTINGS).sort());
    for (const [name, spec] of Object.entries(SETTINGS))
      expect(readme.get(name), name).toBe(documentedDefault(spec as SettingSpec<unknown>));
  });

  it("has no setting read by the app outside the schema", () => {
    const files = [
      ...["lib", "app", "db"].flatMap((d) => sourceFiles(path.join(root, d))),
      ...["proxy.ts", "next.config.ts", "instrumentation.ts"].map((f) => path.join(root, f)).filter((f) => fs.existsSync(f)),
    ];
    const known = new Set<string>([...Object.keys(SETTINGS), ...Object.keys(RETIRED), ...PLATFORM_VARIABLES]);
    const read = new Map<string, string>();
    for (const file of files) {
      const text = fs.readFileSync(file, "utf8");
      for (const m of text.matchAll(/\benv(?:\.|\[")([A-Z][A-Z0-9_]+)|readSetting\([^,]+,\s*"([A-Z][A-Z0-9_]+)"/g))
        read.set(m[1] ?? m[2]!, path.relative(root, file));
    }
    expect(read.size).toBeGreaterThan(10);
    const outside = [...read].filter(([name]) => !known.has(name)).map(([name, file]) => `${name} (${file})`);
    expect(outside, "add these to lib/config/settings.ts and the README table").toEqual([]);
  });
});
