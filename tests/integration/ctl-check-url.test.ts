// Acceptance: every case in the URL fixtures gets its expected verdict from `ctl check-url`, and the
// CLI says exactly what the in-process check (the one the engine and the allowlist call) says.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { checkUrl } from "@/lib/policy/url-check";
import { runCli } from "../helpers/cli";

const fixtures = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/urls.json"), "utf8")) as {
  cases: Array<{ name?: string; url: string; expect: "allow" | "warn" | "block"; dev?: boolean }>;
};
const EXIT = { allow: 0, warn: 3, block: 1 } as const;

describe("ctl check-url", () => {
  it.concurrent.each(fixtures.cases.map((c) => [`${c.name ?? c.url}${c.dev ? " (dev)" : ""}`, c] as const))("%s", async (_n, c) => {
    const r = await runCli(["check-url", c.url, ...(c.dev ? ["--dev"] : [])]);
    const out = JSON.parse(r.stdout);
    // "warn may be warned or blocked but never silently allowed"; allow and block are exact.
    if (c.expect === "warn") expect(["warn", "block"]).toContain(out.verdict);
    else expect(out.verdict).toBe(c.expect);
    expect(r.code).toBe(EXIT[out.verdict as keyof typeof EXIT]);
    expect(Object.keys(out).sort()).toEqual(["host", "reasons", "unicodeHost", "verdict"]);
    expect(out).toEqual(checkUrl(c.url, { dev: c.dev ?? false }));
  });

  it("shows the Unicode and ASCII forms of a punycode host side by side", async () => {
    const r = await runCli(["check-url", "https://xn--pple-43d.com/connect"]);
    expect(JSON.parse(r.stdout)).toMatchObject({ verdict: "warn", host: "xn--pple-43d.com", unicodeHost: "аpple.com" });
  });

  it("exits 2 on a usage error", async () => {
    expect((await runCli(["check-url"])).code).toBe(2);
  });
});
