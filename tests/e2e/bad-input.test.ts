// No input gives a 500. The cases the outside attack found, then a property-based run (fast-check)
// that throws generated values (prototype keys, huge numbers, odd Unicode, arrays, very long
// strings, look-alike URLs) at every route's query and body parameters, signed in as an admin, and
// asserts no 5xx and no change: no kill switch moves, and the only audit entries written are
// refusals. Over real HTTP against the production build.
import fc from "fast-check";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");
let context: BrowserContext;
let cookie = "";

beforeAll(async () => {
  context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), "admin");
  cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
});
afterAll(async () => {
  await context?.close();
});

// Audit actions a refused or read-only request may write (a refusal is evidence, not a change).
const REFUSALS = new Set(["access.denied", "access.denied_repeated", "connect.refused", "connect.refused_repeated", "connect.mismatch"]);

async function state() {
  const audit = (await (await fetch(`${base()}/api/console/audit?limit=1`, { headers: { cookie } })).json()) as {
    data: Array<{ seq: number }>;
  };
  const switches = (await (await fetch(`${base()}/api/console/kill-switch`, { headers: { cookie } })).json()) as {
    data: Array<{ scope: string }>;
  };
  return { head: audit.data[0]!.seq, switches: switches.data.map((s) => s.scope).sort() };
}

async function writtenSince(head: number): Promise<string[]> {
  const res = (await (await fetch(`${base()}/api/console/audit?limit=500`, { headers: { cookie } })).json()) as {
    data: Array<{ seq: number; action: string }>;
  };
  return res.data.filter((e) => e.seq > head).map((e) => e.action);
}

describe("the inputs the outside attack used", () => {
  const port = new URL(inject("baseUrl")).port;
  it.each([
    "/connect/problem?reason=__proto__",
    "/connect/problem?reason=constructor",
    "/connect/problem?reason=toString",
    "/connect/problem?reason=a&reason=b",
    "/connect/done?result=__proto__",
    "/connect/done?result=hasOwnProperty",
    "/console/audit?before=99999999999999999999999",
    "/console/audit?before=-1&action=__proto__.x",
    "/console/records?after=99999999999999999999_0123",
    `/api/auth/signin?callbackUrl=${encodeURIComponent(`http://localhost:${port}.evil.example/`)}`,
    `/sign-in?callbackUrl=${encodeURIComponent("/\\evil.example")}`,
    "/api/console/audit?limit=99999999999999999999",
    "/api/console/audit/export?from=99999-01-01",
    // PostgreSQL text cannot hold NUL: free text compared with a column must be refused before the query.
    "/console/audit?actor=%00",
    "/console/audit?actor=a%00b&action=elicitation.sent",
    "/console/records?client=%00&flow=%01x",
    "/api/console/audit?actor=%00",
  ])("%s answers without a server error", async (p) => {
    const res = await fetch(`${base()}${p}`, { headers: { cookie }, redirect: "manual" });
    expect(res.status).toBeLessThan(500);
  });

  it("a sign-in callback URL on a look-alike host never leaves the site", async () => {
    const res = await fetch(`${base()}/api/auth/signin/oidc?callbackUrl=${encodeURIComponent(`http://localhost:${port}.evil.example/`)}`, {
      redirect: "manual",
    });
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("location") ?? "").not.toContain("evil.example");
  });
});

// Values an attacker reaches for first, mixed with generated ones.
const nasty = fc.oneof(
  fc.constantFrom(
    "__proto__",
    "constructor",
    "prototype",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "",
    " ",
    "%00",
    "\u0000",
    "null",
    "undefined",
    "NaN",
    "-1",
    "1e309",
    "99999999999999999999999",
    "../../../etc/passwd",
    "<script>alert(1)</script>",
    "'; drop table audit_log; --",
    "\u202e\u200b",
    "http://localhost.evil.example/",
    "//evil.example",
    "/\\evil.example",
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.bigInt().map(String),
  fc.double().map(String),
  fc.string({ minLength: 2000, maxLength: 5000 }),
);

const GET_ROUTES: Array<[string, string[]]> = [
  ["/connect/problem", ["reason"]],
  ["/connect/done", ["result", "provider"]],
  ["/console", ["period", "by"]],
  ["/console/records", ["state", "mode", "flow", "client", "inflight", "sort", "after"]],
  ["/console/audit", ["action", "actor", "before"]],
  ["/console/flows", ["stage", "workflow"]],
  ["/sign-in", ["callbackUrl", "error"]],
  ["/api/console/audit", ["action", "actor", "limit"]],
  ["/api/auth/signin", ["callbackUrl", "error"]],
];

describe("generated input on every route", () => {
  for (const [route, params] of GET_ROUTES) {
    it(`GET ${route} with generated ${params.join(", ")}`, async () => {
      const before = await state();
      await fc.assert(
        fc.asyncProperty(fc.dictionary(fc.constantFrom(...params), nasty, { maxKeys: params.length }), async (query) => {
          const qs = new URLSearchParams(query).toString();
          const res = await fetch(`${base()}${route}?${qs}`, { headers: { cookie }, redirect: "manual" });
          await res.arrayBuffer();
          return res.status < 500;
        }),
        { numRuns: 20 },
      );
      const after = await state();
      expect(after.switches).toEqual(before.switches);
      expect((await writtenSince(before.head)).filter((a) => !REFUSALS.has(a))).toEqual([]);
    });
  }

  it("GET dynamic pages with generated path segments", async () => {
    const before = await state();
    await fc.assert(
      fc.asyncProperty(fc.constantFrom("/connect/", "/console/records/", "/setup/"), nasty, async (prefix, seg) => {
        const res = await fetch(`${base()}${prefix}${encodeURIComponent(seg)}`, { headers: { cookie }, redirect: "manual" });
        await res.arrayBuffer();
        return res.status < 500;
      }),
      { numRuns: 30 },
    );
    expect((await state()).switches).toEqual(before.switches);
    expect((await writtenSince(before.head)).filter((a) => !REFUSALS.has(a))).toEqual([]);
  });

  it("POST bodies: generated JSON to the kill switch, generated forms to the connect and setup routes", async () => {
    const before = await state();
    const json = fc.oneof(
      fc.jsonValue(),
      fc.dictionary(
        fc.constantFrom("scope", "action", "reason", "expiresInMinutes", "__proto__", "constructor"),
        fc.oneof(nasty, fc.jsonValue()),
      ),
    );
    await fc.assert(
      fc.asyncProperty(json, async (body) => {
        const res = await fetch(`${base()}/api/console/kill-switch`, {
          method: "POST",
          headers: { cookie, origin: base(), "content-type": "application/json" },
          body: JSON.stringify(body),
        });
        await res.arrayBuffer();
        return res.status < 500;
      }),
      { numRuns: 40 },
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("/connect/0123456789abcdef0123456789abcdef/decision", "/setup/demo-git-nope/start", "/connect/__proto__/decision"),
        fc.dictionary(fc.constantFrom("action", "__proto__", "constructor"), nasty),
        async (p, form) => {
          const res = await fetch(`${base()}${p}`, {
            method: "POST",
            redirect: "manual",
            headers: { cookie, origin: base(), "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(form).toString(),
          });
          await res.arrayBuffer();
          return res.status < 500;
        },
      ),
      { numRuns: 30 },
    );
    expect((await state()).switches).toEqual(before.switches);
    expect((await writtenSince(before.head)).filter((a) => !REFUSALS.has(a))).toEqual([]);
  });
});
