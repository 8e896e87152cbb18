// Console controls in Chromium, per role: an operator revokes a pending URL handle from the records
// table and its late callback attaches nothing; a viewer sees everything and can change nothing;
// an approver clears a workflow action from the queue; the record detail shows the timeline; the
// Prometheus endpoint needs its token. Every page passes axe-core; screenshots for the README.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Page, Route } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, SHOTS, useBrowser } from "../helpers/browser";
import { runCli } from "../helpers/cli";
import { connectClient } from "../helpers/mcp-client";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");

async function token(subject: string) {
  return (await runCli(["token", "--subject", subject], inject("appEnv"))).stdout.trim();
}

async function as(login: string, target = "/console"): Promise<Page> {
  const context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), login, target);
  return page;
}

describe("console", () => {
  it("an operator revokes a pending URL handle; its late callback attaches nothing", async () => {
    const client = await connectClient(`${base()}/api/mcp`, await token("user-bob-1002"), {
      name: "e2e-console",
      capabilities: { elicitation: { url: {} } },
      answer: () => ({ action: "accept" }),
    });
    const first = await client.call("list_repositories");
    expect(first.structured).toMatchObject({ outcome: "connect_pending" });
    const id = first.structured.elicitationId as string;

    // Bob goes through the provider, but his browser's way back is held up: the provider's final
    // redirect to /connect/callback is caught and kept for later.
    const bob = await as("bob", `/connect/${id}`);
    let held: string | undefined;
    // The login POST is answered by walking the provider's redirects by hand (same cookie jar)
    // until the one that points back at /connect/callback, which is kept instead of followed.
    const isLoginPost = (url: URL) => url.pathname.startsWith("/dev/downstream/interaction/") && url.pathname.endsWith("/login");
    await bob.route(isLoginPost, async (route: Route) => {
      let response = await route.fetch({ maxRedirects: 0 });
      for (let hop = 0; hop < 5; hop++) {
        const location = response.headers()["location"];
        if (!location) break;
        const next = new URL(location, base());
        if (next.pathname === "/connect/callback") {
          held = next.toString();
          break;
        }
        response = await bob.context().request.get(next.toString(), { maxRedirects: 0 });
      }
      await route.fulfill({
        status: 200,
        contentType: "text/html",
        body: "<!doctype html><html lang=en><title>held</title><p>held</p></html>",
      });
    });
    await bob.getByRole("button", { name: "Continue to Demo Git" }).click();
    await bob.waitForURL(/\/dev\/downstream\/interaction\//);
    await bob.getByLabel("Login").fill("bob");
    await bob.getByLabel("Password").fill("demo");
    await bob.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => held !== undefined, { timeout: 10_000 }).toBe(true);

    // Meanwhile the operator revokes it from the in-flight table.
    const op = await as("operator", "/console/records");
    await op.goto(`${base()}/console/records?inflight=1&mode=url`);
    expect(await seriousA11yViolations(op)).toEqual([]);
    await op.screenshot({ path: path.join(SHOTS, "records.png"), fullPage: true });
    await op.getByLabel(`Select record ${id}`).check();
    await op.getByLabel("Reason for revoking").fill("suspicious connect attempt");
    await op.getByRole("button", { name: "Revoke 1 selected" }).click();
    await expect.poll(async () => op.getByTestId("revoke-result").textContent()).toBe("Revoked 1.");

    // The late callback arrives: nothing attached.
    await bob.goto(held!);
    await bob.waitForURL(/\/connect\/problem/);
    expect(await bob.getByTestId("connect-problem").getAttribute("data-problem")).toBe("revoked");
    expect((await client.call("list_repositories")).structured).toMatchObject({ outcome: "connect_pending" });

    // The record detail tells the story.
    await op.goto(`${base()}/console/records/${id}`);
    expect(await op.getByTestId("record-state").textContent()).toBe("revoked");
    expect(await op.getByTestId("timeline").textContent()).toMatch(/revoked by operator op-operator-0002: suspicious connect attempt/);
    expect(await seriousA11yViolations(op)).toEqual([]);
    await op.screenshot({ path: path.join(SHOTS, "record-detail.png"), fullPage: true });
    await client.close();
  });

  it("a viewer sees the records and can change nothing", async () => {
    const viewer = await as("viewer", "/console/records");
    expect(await viewer.getByTestId("records-table").count()).toBe(1);
    const first = viewer.locator('tbody input[type="checkbox"]:not([disabled])').first();
    if ((await first.count()) === 0) throw new Error("the seeded store should have unfinished records");
    await first.check();
    await viewer.getByLabel("Reason for revoking").fill("viewer tries");
    await viewer.getByRole("button", { name: /Revoke 1 selected/ }).click();
    await expect.poll(async () => viewer.getByTestId("revoke-result").textContent()).toMatch(/^Refused: forbidden/);
  });

  it("an approver clears a purge request from the queue; the retried call proceeds once", async () => {
    const alice = await connectClient(`${base()}/api/mcp`, await token("user-alice-1001"), {
      name: "e2e-approvals",
      capabilities: { elicitation: { form: {} } },
    });
    const asked = await alice.call("purge_report_cache");
    expect(asked.structured, asked.text).toMatchObject({ outcome: "approval_pending" });
    const id = asked.structured.approval as string;
    const approver = await as("approver", "/console/approvals");
    expect(await seriousA11yViolations(approver)).toEqual([]);
    await approver.screenshot({ path: path.join(SHOTS, "approvals.png"), fullPage: true });
    const form = approver.getByRole("form", { name: `Decide ${id}` });
    await form.getByLabel("Reason").fill("cache is stale");
    await form.getByRole("button", { name: "Approve" }).click();
    await expect.poll(async () => form.getByRole("status").textContent()).toBe("Done: approved.");
    expect((await alice.call("purge_report_cache")).structured).toMatchObject({ outcome: "completed", approval: id });
    await alice.close();
  });

  it("an auditor's export downloads, verifies with ctl audit verify and in the browser; a viewer cannot export", async () => {
    const viewer = await as("viewer", "/console/audit");
    expect((await viewer.request.get(`${base()}/api/console/audit/export`)).status()).toBe(403);
    const auditor = await as("auditor", "/console/audit");
    expect(await seriousA11yViolations(auditor)).toEqual([]);
    await auditor.screenshot({ path: path.join(SHOTS, "audit.png"), fullPage: true });
    const [download] = await Promise.all([
      auditor.waitForEvent("download"),
      auditor.getByRole("button", { name: "Download export" }).click(),
    ]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "eg-e2e-evidence-"));
    const tarPath = path.join(dir, "evidence.tar");
    await download.saveAs(tarPath);
    const verified = await runCli(["audit", "verify", tarPath, "--json"], {});
    expect(verified.code).toBe(0);
    const count = JSON.parse(verified.stdout).count as number;
    expect(count).toBeGreaterThan(10);
    // Extracted, it is the data parts, the manifest, its detached signature and the key (plus the
    // signed release-gate documents, when a gate has run in this deployment: verified above).
    execFileSync("tar", ["-xf", tarPath, "-C", dir]);
    const parts = fs.readdirSync(dir);
    expect(parts.filter((n) => !n.startsWith("audit.ndjson.") && !n.startsWith("gate-evidence.")).sort()).toEqual([
      "evidence.tar",
      "manifest.json",
      "manifest.json.sig",
      "signer.pub.pem",
    ]);
    expect(parts.filter((n) => n.startsWith("gate-evidence.")).every((n) => /^gate-evidence\.[0-9a-f]{64}\.json$/.test(n))).toBe(true);
    expect(fs.readdirSync(dir).filter((n) => n.startsWith("audit.ndjson."))).toContain("audit.ndjson.000001");
    // The same archive, uploaded to the console as downloaded, verifies too; a changed line is named.
    await auditor.getByLabel(/Evidence archive/).setInputFiles(tarPath);
    await auditor.getByRole("button", { name: "Verify" }).click();
    await expect.poll(async () => auditor.getByTestId("verify-result").textContent()).toMatch(new RegExp(`^Intact: ${count} entries`));
    const bytes = fs.readFileSync(tarPath);
    const at = bytes.indexOf('"actorType":"', bytes.lastIndexOf("\n", bytes.indexOf('"seq":5,')) + 1);
    bytes[at + 13] = bytes[at + 13]! ^ 1;
    const tampered = path.join(dir, "tampered.tar");
    fs.writeFileSync(tampered, bytes);
    await auditor.getByLabel(/Evidence archive/).setInputFiles(tampered);
    await auditor.getByRole("button", { name: "Verify" }).click();
    await expect.poll(async () => auditor.getByTestId("verify-result").textContent()).toMatch(/^Broken: line \d+: entry \d+ was changed/);
    // Something that is not an archive gets a clear refusal.
    fs.writeFileSync(path.join(dir, "notes.tar"), "not a tar");
    await auditor.getByLabel(/Evidence archive/).setInputFiles(path.join(dir, "notes.tar"));
    await auditor.getByRole("button", { name: "Verify" }).click();
    await expect.poll(async () => auditor.getByTestId("verify-result").textContent()).toMatch(/^Error: not an evidence archive: /);
    // The export itself is in the audit log.
    const audit = await (await auditor.request.get(`${base()}/api/console/audit?action=audit.exported&actor=op-auditor-0005`)).json();
    expect(audit.data.length).toBeGreaterThanOrEqual(1);
  });

  it("an admin manages the origin allowlist with the URL check inline; an operator cannot", async () => {
    const admin = await as("admin", "/console/origins");
    await admin.getByLabel(/Exact redirect URIs/).fill("https://xn--pple-43d.com/connect/callback");
    await admin.getByRole("button", { name: "Add to allowlist" }).click();
    await expect.poll(async () => admin.getByTestId("origin-result").textContent()).toMatch(/^Refused: .*accept the warnings/);
    await admin.getByLabel(/accept the URL check/).check();
    await admin.getByRole("button", { name: "Add to allowlist" }).click();
    await expect
      .poll(async () => admin.getByTestId("origin-result").textContent())
      .toBe("Allowed https://xn--pple-43d.com with 1 redirect URI(s).");
    await admin.reload();
    expect(await admin.getByTestId("origins").textContent()).toContain("shown as аpple.com");
    expect(await seriousA11yViolations(admin)).toEqual([]);
    await admin.screenshot({ path: path.join(SHOTS, "origins.png"), fullPage: true });
    // The operator sees the list but no controls (the server would refuse them: origins.manage).
    const operator = await as("operator", "/console/origins");
    expect(await operator.getByText("Only admins manage origins.").count()).toBe(1);
    expect(await operator.getByRole("button", { name: "Remove" }).count()).toBe(0);
  });

  it("a releaser's promotion waits for an approver and is refused while gates are missing", async () => {
    const flowId = "purge_report_cache:claude-code"; // seeded in canary
    const releaser = await as("releaser", "/console/flows");
    expect(await seriousA11yViolations(releaser)).toEqual([]);
    await releaser.screenshot({ path: path.join(SHOTS, "flows.png"), fullPage: true });
    const controls = releaser.getByRole("form", { name: `Release controls for ${flowId}` });
    await controls.getByLabel("Reason").fill("canary looks healthy");
    await controls.getByRole("button", { name: "Request promotion" }).click();
    await expect.poll(async () => controls.getByRole("status").textContent()).toMatch(/^promotion requested \(apr_[0-9a-f]{16}\)/);
    const id = /apr_[0-9a-f]{16}/.exec((await controls.getByRole("status").textContent())!)![0];
    await controls.getByRole("button", { name: "Apply approved promotion" }).click();
    await expect.poll(async () => controls.getByRole("status").textContent()).toBe("Refused: no approved promotion request for this flow");

    const approver = await as("approver", "/console/approvals");
    const form = approver.getByRole("form", { name: `Decide ${id}` });
    await form.getByLabel("Reason").fill("metrics are fine");
    await form.getByRole("button", { name: "Approve" }).click();
    await expect.poll(async () => form.getByRole("status").textContent()).toBe("Done: approved.");

    await releaser.reload();
    const again = releaser.getByRole("form", { name: `Release controls for ${flowId}` });
    await again.getByRole("button", { name: "Apply approved promotion" }).click();
    await expect
      .poll(async () => again.getByRole("status").textContent())
      .toMatch(/^Refused: gates not passing for the current version: contract missing/);
  });

  it("every console control on the records and overview pages is reachable from the keyboard", async () => {
    const page = await as("operator", "/console/records");
    const reached = new Set<string>();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      const label = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el) return "";
        // Focus must be visible where it lands (the app styles :focus-visible).
        const outline = getComputedStyle(el).outlineStyle;
        const name = el.getAttribute("aria-label") ?? (el as HTMLInputElement).labels?.[0]?.textContent ?? el.textContent ?? "";
        return `${el.tagName.toLowerCase()}:${name.trim().slice(0, 40)}:${outline}`;
      });
      reached.add(label);
    }
    const all = [...reached].join("\n");
    // (A label wraps its select, so the select's name starts with the label text.)
    for (const want of [
      /^select:State/m,
      /^select:Mode/m,
      /^select:Client/m,
      /^button:Apply:/m,
      /^input:Reason for revoking:/m,
      /^input:Select record [0-9a-f]+:/m,
      /^a:[0-9a-f]{12}…:/m,
      /^button:Sign out:/m,
    ])
      expect(all).toMatch(want);
    expect(all).not.toMatch(/:none$/m);

    // The kill switch, by keyboard, up to its confirmation step.
    await page.goto(`${base()}/console`);
    await page.getByLabel("Reason (required)").focus();
    await page.keyboard.type("keyboard drill");
    const engage = page.getByRole("button", { name: "Engage kill switch" });
    for (let i = 0; i < 10 && !(await engage.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    expect(await page.getByTestId("kill-switch-confirm").textContent()).toMatch(/Engaging global will/);
    await expect.poll(() => page.getByRole("button", { name: "Confirm: engage kill switch" }).count()).toBe(1);
    // Asking is not engaging: nothing was sent to the server.
    await page.waitForTimeout(500);
    await page.reload();
    expect(await page.getByTestId("kill-switch-banner").count()).toBe(0);
    const status = await page.request.get(`${base()}/api/console/kill-switch`);
    expect((await status.json()).data).toEqual([]);
  });

  it("every control on every console page is reachable by Tab, with visible focus", async () => {
    const page = await as("admin", "/console");
    const firstRecord = await (async () => {
      await page.goto(`${base()}/console/records`);
      return page.locator("a[href^='/console/records/']").first().getAttribute("href");
    })();
    for (const path of [
      "/console",
      "/console/records",
      firstRecord!,
      "/console/flows",
      "/console/approvals",
      "/console/origins",
      "/console/clients",
      "/console/audit",
    ]) {
      await page.goto(`${base()}${path}`);
      // Every visible, enabled control gets a number; then Tab walks the page from the top.
      const total = await page.evaluate(() => {
        // Inside a closed <details> only its own <summary> is a control until it is opened (Chromium
        // keeps layout boxes for the hidden content, so client rects alone do not say it is hidden).
        const folded = (el: HTMLElement) => {
          const closed = el.closest("details:not([open])");
          return !!closed && !(el.tagName === "SUMMARY" && el.parentElement === closed);
        };
        const controls = [
          ...document.querySelectorAll<HTMLElement>("a[href], button, input, select, textarea, summary, [tabindex]"),
        ].filter(
          (el) =>
            el.tabIndex >= 0 &&
            !(el as HTMLButtonElement).disabled &&
            (el as HTMLInputElement).type !== "hidden" &&
            el.getClientRects().length > 0 &&
            !folded(el),
        );
        controls.forEach((el, i) => el.setAttribute("data-kb", String(i)));
        (document.activeElement as HTMLElement | null)?.blur();
        return controls.length;
      });
      expect(total, path).toBeGreaterThan(3);
      const reached = new Set<string>();
      const unstyled: string[] = [];
      for (let i = 0; i < total + 15 && reached.size < total; i++) {
        await page.keyboard.press("Tab");
        const hit = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement | null;
          return el?.dataset.kb === undefined
            ? null
            : { kb: el.dataset.kb, outline: getComputedStyle(el).outlineStyle, name: el.outerHTML.slice(0, 90) };
        });
        if (!hit) continue;
        reached.add(hit.kb);
        if (hit.outline === "none") unstyled.push(hit.name);
      }
      const missed = await page.evaluate(
        (seen) =>
          [...document.querySelectorAll<HTMLElement>("[data-kb]")]
            .filter((el) => !seen.includes(el.dataset.kb!))
            .map((el) => el.outerHTML.slice(0, 80)),
        [...reached],
      );
      expect(missed, `${path}: controls Tab never reached`).toEqual([]);
      expect(unstyled, `${path}: focus without a visible outline`).toEqual([]);
    }

    // And one form operated from the keyboard alone: add an origin on the allowlist.
    await page.goto(`${base()}/console/origins`);
    await page.getByLabel(/Exact redirect URIs/).focus();
    await page.keyboard.type("https://keyboard.example.org/connect/callback");
    const add = page.getByRole("button", { name: "Add to allowlist" });
    for (let i = 0; i < 5 && !(await add.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expect
      .poll(async () => page.getByTestId("origin-result").textContent())
      .toBe("Allowed https://keyboard.example.org with 1 redirect URI(s).");
  });

  it("shows client compatibility per deployment", async () => {
    const page = await as("viewer", "/console/clients");
    expect(await page.getByTestId("clients-table").textContent()).toContain("Visual Studio Code");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "clients.png"), fullPage: true });
  });

  it("serves value-free Prometheus metrics behind a token", async () => {
    expect((await fetch(`${base()}/api/metrics`)).status).toBe(401);
    // A request of this test's own, so the per-instance count below does not lean on other tests.
    const own = await fetch(`${base()}/connect/problem?reason=CANARY-e2e-metrics`);
    expect(own.status).toBeLessThan(500);
    await own.text();
    const secret = fs.readFileSync(path.join(inject("appEnv").DATA_DIR!, "keys", "metrics-token.secret"), "utf8").trim();
    const scrape = async () => {
      const res = await fetch(`${base()}/api/metrics`, { headers: { authorization: `Bearer ${secret}` } });
      expect(res.status).toBe(200);
      return res.text();
    };
    // A request is counted when its response has closed on the server, a moment after the client has it.
    const counted = /^http_server_requests_total\{route="\/connect\/problem",method="GET",status="[2-4]xx"\} [1-9]\d*$/m;
    await expect.poll(scrape).toMatch(counted);
    const text = await scrape();
    // Store-wide aggregates under their own family, never under the per-instance names.
    expect(text).toMatch(/^store_elicitation_records\{state="completed",mode="form",flow="[^"]+"\} \d+$/m);
    expect(text).toMatch(/^store_audit_log_entries \d+$/m);
    expect(text).not.toMatch(/^elicitation_records\{/m);
    // Per-instance figures: the request above, counted by its route template and without its query.
    expect(text).toMatch(counted);
    expect(text).not.toContain("CANARY-e2e-metrics");
    expect(text).toMatch(/^process_resident_memory_bytes \d+/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
    expect(text).toMatch(/^db_pool_connections_max [1-9]\d*$/m);
  });
});
