// Acceptance: every case in the form fixtures gets its expected verdict from `ctl lint-schema`.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli";

const fixtures = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../fixtures/form-requests.json"), "utf8")) as {
  cases: Array<{ name: string; expect: "allow" | "block"; request: unknown }>;
};
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-lint-"));

describe("ctl lint-schema", () => {
  it.concurrent.each(fixtures.cases.map((c) => [c.name, c] as const))("%s", async (name, c) => {
    const file = path.join(dir, `${name}.json`);
    fs.writeFileSync(file, JSON.stringify(c.request));
    const r = await runCli(["lint-schema", file]);
    const out = JSON.parse(r.stdout);
    expect(out.verdict).toBe(c.expect);
    expect(r.code).toBe(c.expect === "allow" ? 0 : 1);
    for (const reason of out.reasons) expect(Object.keys(reason).sort()).toEqual(["code", "detail", "field"]);
  });

  it("exits 2 on unreadable input", async () => {
    const file = path.join(dir, "broken.json");
    fs.writeFileSync(file, "{ nope");
    const r = await runCli(["lint-schema", file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect((await runCli(["lint-schema", path.join(dir, "missing.json")])).code).toBe(2);
    expect((await runCli(["lint-schema"])).code).toBe(2);
  });
});
