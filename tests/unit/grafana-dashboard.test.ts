// The dashboard in docs/ charts only metrics this build serves: every name in its queries is one
// of the per-instance registry's or a store_ name of the store-wide family, and the store family
// is never summed across instances.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { instanceMetrics } from "@/lib/metrics/instance-metrics";

const STORE_NAMES = [
  "store_elicitation_records",
  "store_elicitation_prevented_repeats_total",
  "store_elicitation_kill_switches_engaged",
  "store_audit_log_entries",
];

interface Panel {
  type: string;
  targets?: Array<{ expr: string }>;
}

describe("docs/grafana-dashboard.json", () => {
  const dashboard = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, "../../docs/grafana-dashboard.json"), "utf8")) as {
    panels: Panel[];
  };
  const exprs = dashboard.panels.flatMap((p) => p.targets ?? []).map((t) => t.expr);

  it("queries only metric names this build serves", async () => {
    const served = new Set((await instanceMetrics().registry.getMetricsAsJSON()).map((m) => m.name));
    const known = (name: string) => served.has(name) || served.has(name.replace(/_(bucket|sum|count)$/, "")) || STORE_NAMES.includes(name);
    const names = exprs
      .flatMap((e) => [...e.matchAll(/\b([a-z_:][a-z0-9_:]*)(?=\{|\[|\))/g)].map((m) => m[1]!))
      .filter((n) => /_(total|seconds|bytes|live|max|busy|bucket|records|entries|engaged)$/.test(n) || n.startsWith("store_"));
    expect(names.length).toBeGreaterThan(10);
    expect(names.filter((n) => !known(n))).toEqual([]);
  });

  it("reads store-wide figures with max(), never sum()", () => {
    const store = exprs.filter((e) => e.includes("store_"));
    expect(store.length).toBeGreaterThan(0);
    expect(store.every((e) => /^max\b/.test(e) && !/\bsum\b/.test(e))).toBe(true);
  });
});
