// The upstream registry's input, as an attacker would send it: SSRF-ish endpoints, plain HTTP in
// production, prototype keys, oversized lists, secrets named outside the UPSTREAM_SECRET_ space,
// headers the gateway sets itself, look-alike and wildcard origins. Each is refused with a reason.
import { describe, expect, it } from "vitest";
import { checkLinkOrigin, checkUpstreamUrl, upstreamInput, upstreamsFile } from "@/lib/gateway/upstream-input";
import { exposedToolName, flowWorkflowName, parseExposedName } from "@/lib/gateway/tool-names";
import { WORKFLOW_NAME_PATTERN } from "@/lib/policy/profile-id";

const good = { id: "tickets", displayName: "Tickets", url: "https://mcp.example.com/mcp", tenants: ["acme"], exposedTools: ["*"] };

describe("upstream endpoint URLs", () => {
  it.each([
    "http://169.254.169.254/latest/meta-data",
    "https://169.254.169.254/mcp",
    "http://[fe80::1]/mcp",
    "https://0.0.0.0/mcp",
    "https://metadata.google.internal/mcp",
    "file:///etc/passwd",
    "https://user:pass@mcp.example.com/mcp",
    "https://10.0.0.5/mcp",
    "https://xn--80ak6aa92e.com/mcp",
    "https://mcp.example.com/mcp#frag",
  ])("refuses %s", (url) => {
    expect(() => checkUpstreamUrl(url, true)).toThrow();
  });

  it("allows loopback HTTP only in development, HTTPS everywhere", () => {
    expect(checkUpstreamUrl("http://127.0.0.1:3001/mcp", true)).toBe("http://127.0.0.1:3001/mcp");
    expect(() => checkUpstreamUrl("http://127.0.0.1:3001/mcp", false)).toThrow(/HTTPS/);
    expect(() => checkUpstreamUrl("http://mcp.example.com/mcp", true)).toThrow();
    expect(checkUpstreamUrl("https://mcp.example.com/mcp", false)).toBe("https://mcp.example.com/mcp");
  });

  it("link origins are exact HTTPS origins: no wildcards, paths or look-alike hosts", () => {
    expect(checkLinkOrigin("https://GitHub.com", false)).toBe("https://github.com");
    for (const bad of ["https://*.github.com", "https://github.com/login", "http://github.com", "https://g\u0456thub.com"])
      expect(() => checkLinkOrigin(bad, false)).toThrow();
  });
});

describe("upstream input", () => {
  it("accepts a well-formed upstream and normalises its lists", () => {
    const r = upstreamInput.parse({ ...good, tenants: ["globex", "acme", "acme"], urlOrigins: ["https://github.com"] });
    expect(r).toMatchObject({ tenants: ["acme", "globex"], auth: { kind: "none" }, urlOrigins: ["https://github.com"] });
  });

  it("refuses prototype keys and unknown keys", () => {
    expect(
      upstreamInput.safeParse(
        JSON.parse(
          `{"id":"tickets","displayName":"T","url":"https://mcp.example.com/mcp","tenants":["acme"],"exposedTools":["*"],"__proto__":{"admin":true}}`,
        ),
      ).success,
    ).toBe(false);
    expect(upstreamInput.safeParse({ ...good, constructor: "x" }).success).toBe(false);
    expect(upstreamsFile.safeParse(JSON.parse(`{"upstreams":[],"__proto__":{"x":1}}`)).success).toBe(false);
  });

  it("refuses oversized input", () => {
    expect(upstreamInput.safeParse({ ...good, tenants: Array.from({ length: 101 }, (_, i) => `t${i}`) }).success).toBe(false);
    expect(upstreamInput.safeParse({ ...good, displayName: "x".repeat(101) }).success).toBe(false);
    expect(upstreamInput.safeParse({ ...good, url: `https://mcp.example.com/${"a".repeat(3000)}` }).success).toBe(false);
    expect(upstreamInput.safeParse({ ...good, id: "a".repeat(25) }).success).toBe(false);
  });

  it("a header credential may only name an UPSTREAM_SECRET_ variable, and never a header the gateway sets", () => {
    const auth = (a: Record<string, unknown>) =>
      upstreamInput.safeParse({ ...good, auth: { kind: "header", header: "Authorization", secretEnv: "UPSTREAM_SECRET_TICKETS", ...a } })
        .success;
    expect(auth({})).toBe(true);
    expect(auth({ secretEnv: "SESSION_SECRET" })).toBe(false);
    expect(auth({ secretEnv: "VAULT_KEY" })).toBe(false);
    expect(auth({ header: "X-Gateway-Identity" })).toBe(false);
    expect(auth({ header: "Host" })).toBe(false);
    expect(auth({ prefix: "Bearer\u0000" })).toBe(false);
  });

  it("refuses control characters and bad ids", () => {
    expect(upstreamInput.safeParse({ ...good, displayName: "T\u0000" }).success).toBe(false);
    expect(upstreamInput.safeParse({ ...good, id: "has_underscore" }).success).toBe(false);
    expect(upstreamInput.safeParse({ ...good, tenants: ["ACME"] }).success).toBe(false);
  });
});

describe("tool names", () => {
  it("namespaces tools and splits them back; flow names fit the flow pattern and never collide", () => {
    expect(parseExposedName(exposedToolName("everything", "trigger-url-elicitation"))).toEqual({
      upstreamId: "everything",
      tool: "trigger-url-elicitation",
    });
    expect(parseExposedName("generate_report")).toBeUndefined();
    expect(parseExposedName("everything__echo\u0000")).toBeUndefined();
    expect(parseExposedName("everything__a b")).toBeUndefined();
    const a = flowWorkflowName("everything", "trigger-url-elicitation");
    const b = flowWorkflowName("everything", "trigger_url_elicitation");
    expect(a).not.toBe(b);
    for (const n of [a, b, flowWorkflowName("x1", "T".repeat(64))]) expect(n).toMatch(WORKFLOW_NAME_PATTERN);
  });
});
