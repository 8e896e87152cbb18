// The console shows the protocol revision and separates how records ended without an answer, in
// Chromium against the production build: the overview grouped by revision (seeded history of both
// revisions, with cancels by a person and by a client that went away), the record detail of a
// record a real v2 client pinned to 2026-07-28 just completed, and the clients page naming that
// client version's revision.
import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "../helpers/browser";
import { runCli } from "../helpers/cli";
import { connectV2Client } from "../helpers/mcp-client-v2";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");

async function asViewer(target: string) {
  const page = await (await browser().newContext()).newPage();
  await signIn(page, base(), "viewer", target);
  return page;
}

describe("revisions in the console", () => {
  it("the overview groups by revision and keeps person cancelled, client went away and timed out apart", async () => {
    const page = await asViewer("/console");
    await page.goto(`${base()}/console?period=30d&by=revision`);
    const table = page.getByTestId("health-table");
    const headers = await table.locator("thead th").allInnerTexts();
    expect(headers.slice(0, 9)).toEqual([
      "revision",
      "Records",
      "Completed",
      "Declined",
      "Cancelled by the person",
      "Client went away",
      "Validation failed",
      "Timed out (nobody answered)",
      "Prevented repeats",
    ]);
    const groups = await table.locator("tbody tr td:first-child").allInnerTexts();
    expect(groups).toEqual(expect.arrayContaining(["2025-11-25", "2026-07-28"]));
    // The seeded 2025-era history has clients that went away: a share, not "-" or 0.0%.
    const legacy = table.locator("tbody tr", { hasText: "2025-11-25" });
    const gone = await legacy.locator("td").nth(5).innerText();
    expect(gone).toMatch(/^\d+\.\d%$/);
    expect(gone).not.toBe("0.0%");
  });

  it("a record carried by 2026-07-28 says so in its detail, and the clients page names the revision its version spoke", async () => {
    const token = (await runCli(["token", "--subject", "user-alice-1001"], inject("appEnv"))).stdout.trim();
    const c = await connectV2Client(`${base()}/api/mcp`, token, {
      mode: "pin",
      name: "e2e-modern-client",
      capabilities: { elicitation: { form: {} } },
      answer: () => ({ action: "accept", content: { environment: "production", format: "csv", from: "2026-10-01", to: "2026-10-31" } }),
    });
    const r = await c.call("generate_report");
    await c.close();
    expect(r.structured).toMatchObject({ outcome: "completed" });
    const page = await asViewer(`/console/records/${String(r.structured.record)}`);
    await expect.poll(() => page.getByTestId("record-state").innerText()).toBe("completed");
    expect(await page.getByTestId("record-revision").innerText()).toBe("2026-07-28");

    await page.goto(`${base()}/console/clients`);
    const row = page.getByTestId("clients-table").locator("tbody tr", { hasText: "e2e-modern-client" });
    expect(await row.innerText()).toContain("2026-07-28");
    expect(await row.innerText()).not.toContain("2025-11-25");
  });
});
