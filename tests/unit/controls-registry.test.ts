// The registries behind the generic adapters: every registered control has a unique name and at
// least one generic surface, a `ctl` command is never declared twice, and the console route
// registry names each page once, with a page file behind every path. A name or form that comes
// from a browser and names no control is refused before anything runs.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONSOLE_ROUTES, consoleNavigation } from "@/lib/console/routes";
import { runRegisteredControl } from "@/lib/controls/registered-form-action";
import { cliControl, controlByName, REGISTERED_CONTROLS } from "@/lib/controls/registry";

const root = path.resolve(import.meta.dirname, "../..");

describe("the control registry", () => {
  it("has unique names and commands, each control with a command or a form", () => {
    const names = REGISTERED_CONTROLS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of REGISTERED_CONTROLS) {
      expect(c.name).toMatch(/^[a-z]+(-[a-z]+)*$/);
      expect(c.cli ?? c.form).toBeDefined();
      expect(c.audit.length).toBeGreaterThan(0);
    }
    const commands = REGISTERED_CONTROLS.flatMap((c) => (c.cli ? [c.cli.command.join(" ")] : []));
    expect(new Set(commands).size).toBe(commands.length);
    expect(cliControl("flows", "pause")?.name).toBe("pause-flow");
    expect(cliControl("flows", "list")).toBeUndefined();
  });

  it("finds controls by own name only", () => {
    for (const name of ["__proto__", "constructor", "toString", "hasOwnProperty", "", "PAUSE-FLOW", 42, null, undefined, {}])
      expect(controlByName(name)).toBeUndefined();
    expect(controlByName("pause-flow")?.name).toBe("pause-flow");
  });

  it("refuses an unknown control or a body that is not a form before running anything", async () => {
    const form = new FormData();
    form.set("flowId", "generate_report:claude-code");
    for (const name of ["no-such-control", "__proto__", "constructor", ["pause-flow"], null])
      expect(await runRegisteredControl(name, form)).toEqual({ ok: false, error: "no such control" });
    for (const body of [null, "flowId=x", { flowId: "generate_report:claude-code", minutes: 5, reason: "x" }])
      expect(await runRegisteredControl("pause-flow", body)).toEqual({ ok: false, error: "invalid input" });
  });
});

describe("the console route registry", () => {
  it("names each page once and every path has a page", () => {
    const ids = CONSOLE_ROUTES.map((r) => r.id);
    const paths = CONSOLE_ROUTES.map((r) => r.path);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(paths).size).toBe(paths.length);
    for (const p of paths) expect(fs.existsSync(path.join(root, "app/(console)", p, "page.tsx")), p).toBe(true);
    expect(consoleNavigation().map((l) => l.href)).toEqual(paths);
  });

  it("has a registry entry for every console page on disk", () => {
    const pages: string[] = [];
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(dir, e.name));
        else if (e.name === "page.tsx") pages.push("/" + path.relative(path.join(root, "app/(console)"), dir).split(path.sep).join("/"));
      }
    };
    walk(path.join(root, "app/(console)/console"));
    // A page about one item (a record) is checked against its list's entry.
    const lists = pages.filter((p) => !p.includes("["));
    expect(lists.sort()).toEqual(CONSOLE_ROUTES.map((r) => r.path).sort());
  });
});
