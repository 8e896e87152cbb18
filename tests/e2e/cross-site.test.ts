// Cross-site attacks on every state-changing route, over real HTTP against the production build:
// every mutating route handler file in app/ is found on disk and attacked with an admin's session
// cookie from another site and from another port of the same host (same site, other origin), and
// a real page on another port tries the same from the admin's own browser. Nothing may change.
import fs from "node:fs";
import http from "node:http";
import type net from "node:net";
import path from "node:path";
import type { BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");
const root = path.resolve(import.meta.dirname, "../..");

interface MutatingRoute {
  file: string;
  method: string;
  path: string;
}

// Sample values for dynamic segments, so every route file can be addressed without a hand-kept list.
const SAMPLE: Record<string, string> = { id: "0123456789abcdef0123456789abcdef", provider: "demo-git", nextauth: "signout" };

/** Every exported POST/PUT/PATCH/DELETE in app/**\/route.ts, with a URL to reach it. */
function mutatingRoutes(): MutatingRoute[] {
  const out: MutatingRoute[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name === "route.ts") {
        const src = fs.readFileSync(full, "utf8");
        const methods = new Set<string>();
        for (const m of src.matchAll(/export\s+(?:async\s+function|const)\s+(POST|PUT|PATCH|DELETE)\b/g)) methods.add(m[1]!);
        for (const m of src.matchAll(/export\s*\{([^}]*)\}/g))
          for (const n of m[1]!.matchAll(/\bas\s+(POST|PUT|PATCH|DELETE)\b/g)) methods.add(n[1]!);
        const rel = path.relative(path.join(root, "app"), path.dirname(full)).split(path.sep);
        const urlPath =
          "/" +
          rel
            .filter((s) => !/^\(.*\)$/.test(s))
            .map((s) => s.replace(/^\[(?:\.\.\.)?(.+)\]$/, (_, name: string) => SAMPLE[name] ?? "x"))
            .join("/");
        for (const method of methods) out.push({ file: path.relative(root, full), method, path: urlPath });
      }
    }
  };
  walk(path.join(root, "app"));
  return out.sort((a, b) => a.file.localeCompare(b.file));
}

let context: BrowserContext;
let cookie = "";

async function auditHead(): Promise<number> {
  const res = await fetch(`${base()}/api/console/audit?limit=1`, { headers: { cookie } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { data: Array<{ seq: number }> };
  return body.data[0]!.seq;
}

async function engagedSwitches(): Promise<string[]> {
  const res = await fetch(`${base()}/api/console/kill-switch`, { headers: { cookie } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { data: Array<{ scope: string }> }).data.map((s) => s.scope).sort();
}

beforeAll(async () => {
  context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), "admin");
  cookie = (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
});
afterAll(async () => {
  await context?.close();
});

describe("every mutating route refuses other origins", () => {
  const routes = mutatingRoutes();

  it("finds the mutating route handlers (size guard: a broken scan cannot pass vacuously)", () => {
    expect(routes.length).toBeGreaterThanOrEqual(5);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(
      expect.arrayContaining([
        "POST /api/console/kill-switch",
        "POST /api/console/audit/verify",
        `POST /connect/${SAMPLE.id}/decision`,
        "POST /setup/demo-git/start",
        "POST /api/auth/signout",
      ]),
    );
  });

  const port = new URL(inject("baseUrl")).port;
  const attackers = [
    ["another site", "https://evil.example"],
    ["another port of the same host", `http://localhost:${Number(port) + 1}`],
    ["a look-alike host", `http://localhost:${port}.evil.example`],
  ] as const;

  for (const route of routes) {
    for (const [who, origin] of attackers) {
      for (const contentType of ["application/json", "text/plain", "application/x-www-form-urlencoded"]) {
        it(`${route.method} ${route.path} (${route.file}) from ${who} as ${contentType}`, async () => {
          const [headBefore, switchesBefore] = [await auditHead(), await engagedSwitches()];
          const body =
            contentType === "application/json"
              ? JSON.stringify({ scope: "global", action: "engage", reason: "csrf attempt" })
              : "scope=global&action=continue&reason=csrf+attempt";
          const res = await fetch(`${base()}${route.path}`, {
            method: route.method,
            redirect: "manual",
            headers: { cookie, origin, "content-type": contentType, "sec-fetch-site": who === "another site" ? "cross-site" : "same-site" },
            body,
          });
          expect(res.status).toBe(403);
          // Refused before anything ran: no audit entry, no switch, nothing else written.
          expect(await auditHead()).toBe(headBefore);
          expect(await engagedSwitches()).toEqual(switchesBefore);
        });
      }
    }
  }
});

describe("the other ways in: server actions, and the one GET that writes", () => {
  const port = new URL(inject("baseUrl")).port;
  it.each([
    ["another site", { origin: "https://evil.example", "sec-fetch-site": "cross-site" }],
    ["another port of the same host", { origin: `http://localhost:${Number(port) + 1}`, "sec-fetch-site": "same-site" }],
    ["a look-alike host", { origin: `http://localhost:${port}.evil.com` }],
    ["no Origin, same-site fetch metadata", { "sec-fetch-site": "same-site" }],
    ["a null Origin", { origin: "null" }],
  ])("a server action from %s is refused with 403 (never a 500) and changes nothing", async (_who, headers) => {
    const [headBefore, switchesBefore] = [await auditHead(), await engagedSwitches()];
    const form = new FormData();
    form.set("1_scope", "mode:url");
    form.set("1_action", "engage");
    form.set("1_reason", "csrf attempt");
    const res = await fetch(`${base()}/console`, {
      method: "POST",
      headers: { cookie, "next-action": "0".repeat(42), accept: "text/x-component", ...headers },
      body: form,
    });
    expect(res.status).toBe(403);
    expect(await auditHead()).toBe(headBefore);
    expect(await engagedSwitches()).toEqual(switchesBefore);
  });

  it.each([
    [
      "an <img> on another port of the same host",
      { "sec-fetch-site": "same-site", "sec-fetch-mode": "no-cors", "sec-fetch-dest": "image" },
    ],
    ["a link on another site", { "sec-fetch-site": "cross-site", "sec-fetch-mode": "navigate" }],
    ["a page announcing another origin", { origin: `http://localhost:${Number(port) + 1}` }],
  ])("the evidence download (it writes an audit entry) refuses %s", async (_who, headers) => {
    const headBefore = await auditHead();
    const res = await fetch(`${base()}/api/console/audit/export`, { headers: { cookie, ...headers } });
    expect(res.status).toBe(403);
    await res.arrayBuffer();
    expect(await auditHead()).toBe(headBefore);
  });
});

describe("a page on another port of the same host, in the admin's own browser", () => {
  let attacker: http.Server;
  let attackerUrl = "";
  beforeAll(async () => {
    const target = base();
    // fetch with no-cors + credentials: a "simple" cross-origin request that needs no preflight and
    // carries the admin's SameSite=Lax cookies (same site: only the port differs); plus an
    // auto-submitted form, the classic CSRF.
    const html = `<!doctype html><html lang="en"><title>attacker</title><body>
<form id="f" method="post" action="${target}/api/console/kill-switch" target="sink" enctype="text/plain"><input name='{"scope":"global","action":"engage","reason":"csrf","x":"' value='"}'></form>
<iframe name="sink" title="sink"></iframe>
<script>
fetch(${JSON.stringify(`${target}/api/console/kill-switch`)}, { method: "POST", mode: "no-cors", credentials: "include", headers: { "content-type": "text/plain" }, body: JSON.stringify({ scope: "global", action: "engage", reason: "csrf attempt" }) })
  .catch(() => {}).finally(() => { document.getElementById("f").submit(); setTimeout(() => { document.title = "done"; }, 500); });
</script></body></html>`;
    attacker = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(html));
    await new Promise<void>((resolve) => attacker.listen(0, "127.0.0.1", resolve));
    // localhost, like the app: the same site, another origin.
    attackerUrl = `http://localhost:${(attacker.address() as net.AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise((r) => attacker?.close(r));
  });

  it("cannot engage the kill switch", async () => {
    const [headBefore, switchesBefore] = [await auditHead(), await engagedSwitches()];
    expect(switchesBefore).not.toContain("global");
    const page = await context.newPage();
    const seen: number[] = [];
    page.on("response", (r) => {
      if (r.url().startsWith(`${base()}/api/console/kill-switch`)) seen.push(r.status());
    });
    await page.goto(attackerUrl);
    await page.waitForFunction(() => document.title === "done");
    await page.close();
    expect(await engagedSwitches()).toEqual(switchesBefore);
    expect(await auditHead()).toBe(headBefore);
  });
});

describe("headers", () => {
  it("every page carries a nonce-based Content-Security-Policy, a fresh nonce each time, and its scripts use it", async () => {
    const seen = new Set<string>();
    for (const p of ["/sign-in", "/signed-out", "/connect/done?result=declined", "/console"]) {
      const res = await fetch(`${base()}${p}`, { headers: { cookie }, redirect: "manual" });
      const csp = res.headers.get("content-security-policy") ?? "";
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
      expect(nonce, p).toBeDefined();
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
      seen.add(nonce!);
      const html = await res.text();
      const scripts = [...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0]);
      expect(scripts.length, p).toBeGreaterThan(0);
      for (const tag of scripts) expect(tag, p).toContain(`nonce="${nonce}"`);
      // Plain HTTP deployment: no HSTS (it would pin a host that has no TLS).
      expect(res.headers.get("strict-transport-security")).toBeNull();
    }
    expect(seen.size).toBe(4);
  });
});
