// The label rules of the per-instance metrics: bounded templates, never the path, the method name
// from the protocol's list only; and the store-wide family's renaming.
import { describe, expect, it } from "vitest";
import { mcpMethodLabel } from "@/lib/metrics/mcp-request";
import { methodLabel, routeLabel, statusClass } from "@/lib/metrics/route-label";
import { asStoreFamily } from "@/lib/metrics/store-family";
import { startTracing, tracingOn } from "@/lib/telemetry/tracing";

describe("routeLabel", () => {
  it.each([
    ["/api/mcp", "/api/mcp"],
    ["/connect/5bd0c0b46a4641c232d805e039ceb56c", "/connect/[id]"],
    ["/connect/5bd0c0b46a4641c232d805e039ceb56c/decision", "/connect/[id]/decision"],
    ["/setup/github/start", "/setup/[provider]/start"],
    ["/console/records/abc", "/console/records/[id]"],
    ["/console", "/console"],
    ["/oidc/auth/xyz", "/oidc/*"],
    ["/dev/downstream/token", "/dev/downstream/*"],
    ["/api/auth/callback/oidc", "/api/auth/*"],
    ["/_next/static/chunks/x.js", "/_next/*"],
    ["/.well-known/oauth-protected-resource/api/mcp", "/.well-known/oauth-protected-resource"],
    ["/user-alice-1001/secret", "other"],
    ["/console/records/a/b", "other"],
    ["/oidcx", "other"],
  ])("%s -> %s", (path, label) => {
    expect(routeLabel(path)).toBe(label);
  });

  it("names the configured MCP path /api/mcp whatever it is", () => {
    expect(routeLabel("/mcp", "/mcp")).toBe("/api/mcp");
  });

  it("keeps methods and statuses bounded", () => {
    expect(methodLabel("GET")).toBe("GET");
    expect(methodLabel("CANARY")).toBe("other");
    expect(methodLabel(undefined)).toBe("other");
    expect([statusClass(200), statusClass(404), statusClass(503), statusClass(999)]).toEqual(["2xx", "4xx", "5xx", "other"]);
  });
});

describe("mcpMethodLabel", () => {
  it.each([
    [{ jsonrpc: "2.0", id: 1, method: "tools/call" }, "tools/call"],
    [{ jsonrpc: "2.0", method: "notifications/initialized" }, "notifications/initialized"],
    [{ jsonrpc: "2.0", id: 1, method: "user-alice/anything" }, "other"],
    [{ jsonrpc: "2.0", id: 1, method: 42 }, "other"],
    [{ jsonrpc: "2.0", id: 1, result: {} }, "response"],
    [[{ jsonrpc: "2.0", id: 1, method: "ping" }], "batch"],
    [JSON.parse('{"__proto__":{"method":"tools/call"}}'), "none"],
    [Object.create({ method: "tools/call" }), "none"],
    [null, "none"],
    ["tools/call", "none"],
  ])("%j -> %s", (body, label) => {
    expect(mcpMethodLabel(body)).toBe(label);
  });
});

describe("asStoreFamily", () => {
  it("prefixes every name in HELP, TYPE and sample lines, and nothing else", () => {
    const text = [
      '# HELP elicitation_records Records by state (flow="other").',
      "# TYPE elicitation_records gauge",
      'elicitation_records{state="completed",mode="form",flow="x"} 9',
      "audit_log_entries 3",
      "",
    ].join("\n");
    expect(asStoreFamily(text)).toBe(
      [
        '# HELP store_elicitation_records Records by state (flow="other").',
        "# TYPE store_elicitation_records gauge",
        'store_elicitation_records{state="completed",mode="form",flow="x"} 9',
        "store_audit_log_entries 3",
        "",
      ].join("\n"),
    );
  });
});

describe("tracing when not configured", () => {
  it("registers nothing without an OTLP endpoint, or when the SDK is disabled", () => {
    expect(startTracing({ env: {} })).toBe(false);
    expect(startTracing({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" } })).toBe(false);
    expect(tracingOn()).toBe(false);
  });
});
