// The console's tables keep their state in the URL, in Chromium: the flows page filters by stage,
// workflow and client profile (a GET form, so each view is a link; an invalid value is refused
// visibly, never silently dropped), and the records table pages by keyset cursor with its filters
// and sort carried in every link, so a walk over the pages sees each row once, in order.
import type { Page } from "playwright-core";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, useBrowser } from "../helpers/browser";
import { signIn } from "../helpers/sign-in";

const browser = useBrowser();
const base = () => inject("baseUrl");

async function as(login: string, target: string): Promise<Page> {
  const context = await browser().newContext();
  const page = await context.newPage();
  await signIn(page, base(), login, target);
  return page;
}

type ShownFlow = { id: string; stage: string };

async function shownFlows(page: Page): Promise<ShownFlow[]> {
  return page
    .locator("li[data-flow]")
    .evaluateAll((els) => els.map((el) => ({ id: el.getAttribute("data-flow") ?? "", stage: el.getAttribute("data-stage") ?? "" })));
}

describe("flows page filters", () => {
  it("filters by stage, workflow and client profile through the URL, and refuses an invalid value visibly", async () => {
    const page = await as("viewer", "/console/flows");
    const all = await shownFlows(page);
    // The seeded store has flows in two stages, three workflows and several profiles.
    expect(new Set(all.map((f) => f.stage)).size).toBeGreaterThan(1);
    expect(all.length).toBeGreaterThan(3);

    // The form: choose a stage and apply; the URL carries it and only that stage is listed.
    const form = page.getByRole("form", { name: "Filter flows" });
    await form.getByLabel("Stage").selectOption("canary");
    await form.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL(/[?&]stage=canary(&|$)/);
    const canary = await shownFlows(page);
    expect(canary.map((f) => f.id)).toEqual(all.filter((f) => f.stage === "canary").map((f) => f.id));
    expect(await seriousA11yViolations(page)).toEqual([]);

    // The applied filter is listed and removing it restores the whole list.
    await page.getByRole("link", { name: "Remove filter Stage: canary" }).click();
    await page.waitForURL((u) => !u.search.includes("stage="));
    expect((await shownFlows(page)).map((f) => f.id)).toEqual(all.map((f) => f.id));

    // Workflow and client profile together, as a deep link.
    const [workflow, profile] = all[0]!.id.split(":") as [string, string];
    await page.goto(`${base()}/console/flows?workflow=${workflow}&client=${profile}`);
    expect((await shownFlows(page)).map((f) => f.id)).toEqual([`${workflow}:${profile}`]);
    expect(await page.getByRole("form", { name: "Filter flows" }).getByLabel("Workflow").inputValue()).toBe(workflow);
    await page.goto(`${base()}/console/flows?workflow=${workflow}`);
    const ofWorkflow = await shownFlows(page);
    expect(ofWorkflow.map((f) => f.id)).toEqual(all.filter((f) => f.id.startsWith(`${workflow}:`)).map((f) => f.id));
    await page.goto(`${base()}/console/flows?client=${profile}`);
    expect((await shownFlows(page)).map((f) => f.id)).toEqual(all.filter((f) => f.id.endsWith(`:${profile}`)).map((f) => f.id));

    // An invalid value is refused by name (never echoed) and the valid filter still applies.
    await page.goto(`${base()}/console/flows?stage=%3Cb%3Ebogus%3C%2Fb%3E&workflow=${workflow}`);
    const refused = await page.getByTestId("params-refused").textContent();
    expect(refused).toMatch(/^Refused: stage: /);
    expect(refused).not.toContain("bogus");
    expect((await shownFlows(page)).map((f) => f.id)).toEqual(ofWorkflow.map((f) => f.id));
    // A repeated parameter and a NUL are refused too, and nothing filters by them.
    await page.goto(`${base()}/console/flows?client=a&client=b`);
    expect(await page.getByTestId("params-refused").textContent()).toBe("Refused: client: given more than once");
    expect((await shownFlows(page)).length).toBe(all.length);
    const res = await page.request.get(`${base()}/console/flows?workflow=%00`);
    expect(res.status()).toBe(200);
    expect(await res.text()).toContain("control characters are not allowed");
    // A valid filter that matches nothing says so.
    await page.goto(`${base()}/console/flows?workflow=no_such_workflow`);
    expect((await shownFlows(page)).length).toBe(0);
    expect(await page.getByText("No flows match these filters.").count()).toBe(1);
  });
});

type ShownRecord = { id: string; createdAt: string; mode: string };

async function shownRecords(page: Page): Promise<ShownRecord[]> {
  return page
    .getByTestId("records-table")
    .locator("tbody tr")
    .evaluateAll((rows) =>
      rows.map((tr) => {
        const cells = tr.querySelectorAll("td");
        return {
          id: (tr.querySelector("a[href^='/console/records/']")?.getAttribute("href") ?? "").slice("/console/records/".length),
          createdAt: tr.querySelector("td span[title]")?.getAttribute("title") ?? "",
          mode: cells[3]?.textContent ?? "",
        };
      }),
    );
}

describe("records keyset paging through the URL", () => {
  it("walks every page of a filtered view once, in order, with the filter and sort in each link", async () => {
    const page = await as("viewer", "/console/records");
    await page.goto(`${base()}/console/records?mode=form`);
    const seen: ShownRecord[] = [];
    let pages = 0;
    for (;;) {
      const rows = await shownRecords(page);
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.length).toBeLessThanOrEqual(50);
      seen.push(...rows);
      pages++;
      const next = page.getByTestId("next-page");
      if ((await next.count()) === 0) break;
      const href = (await next.getAttribute("href")) ?? "";
      const url = new URL(href, base());
      // The filter travels with the cursor; the cursor is the last row's (created_at, id).
      expect(url.pathname).toBe("/console/records");
      expect(url.searchParams.get("mode")).toBe("form");
      expect(url.searchParams.get("after")).toBe(`${Date.parse(rows.at(-1)!.createdAt)}_${rows.at(-1)!.id}`);
      await next.click();
      await page.waitForURL((u) => u.searchParams.get("after") === url.searchParams.get("after"));
      expect(await page.getByRole("navigation", { name: "Pages" }).getByRole("link", { name: "First page" }).getAttribute("href")).toBe(
        "/console/records?mode=form",
      );
    }
    // The seed holds several hundred form records: more than one page.
    expect(pages).toBeGreaterThan(1);
    expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
    expect(seen.every((r) => r.mode === "form")).toBe(true);
    const times = seen.map((r) => Date.parse(r.createdAt));
    for (let i = 1; i < times.length; i++) expect(times[i]!).toBeLessThanOrEqual(times[i - 1]!);

    // The Age header sorts on the server: oldest first, from the first page, the filter kept.
    await page.goto(`${base()}/console/records?mode=form`);
    const age = page.getByTestId("records-table").getByRole("columnheader", { name: /Age/ });
    expect(await age.getAttribute("aria-sort")).toBe("ascending");
    await age.getByRole("link").click();
    await page.waitForURL(
      (u) => u.searchParams.get("sort") === "oldest" && u.searchParams.get("mode") === "form" && !u.searchParams.has("after"),
    );
    expect(await page.getByTestId("records-table").getByRole("columnheader", { name: /Age/ }).getAttribute("aria-sort")).toBe("descending");
    const oldest = await shownRecords(page);
    expect(oldest[0]!.id).toBe(seen.at(-1)!.id);
    expect(await seriousA11yViolations(page)).toEqual([]);
  });

  it("refuses a malformed cursor visibly and shows the first page instead", async () => {
    const page = await as("viewer", "/console/records");
    await page.goto(`${base()}/console/records?mode=form`);
    const first = await shownRecords(page);
    await page.goto(`${base()}/console/records?mode=form&after=99999999999999999999_0123`);
    expect(await page.getByTestId("params-refused").textContent()).toMatch(/^Refused: after: /);
    expect((await shownRecords(page)).map((r) => r.id)).toEqual(first.map((r) => r.id));
  });

  it("filters the audit log through the URL and refuses a malformed action or cursor visibly", async () => {
    const page = await as("auditor", "/console/audit");
    const form = page.getByRole("form", { name: "Filter the audit log" });
    await form.getByLabel("Action (resource.verb)").fill("demo.seeded");
    await form.getByRole("button", { name: "Apply" }).click();
    await page.waitForURL((u) => u.searchParams.get("action") === "demo.seeded");
    const actions = await page.getByTestId("audit-table").locator("tbody tr td:nth-child(4)").allTextContents();
    expect(actions).toEqual(["demo.seeded"]);
    expect(await page.getByRole("link", { name: "Remove filter Action (resource.verb): demo.seeded" }).getAttribute("href")).toBe(
      "/console/audit",
    );
    await page.goto(`${base()}/console/audit?action=not-an-action&before=abc`);
    const refused = (await page.getByTestId("params-refused").textContent()) ?? "";
    expect(refused).toMatch(/^Refused: /);
    expect(refused).toContain("action: no audit action has that name");
    expect(refused).toContain("before: expected a sequence number");
    expect(await page.getByTestId("audit-table").locator("tbody tr").count()).toBeGreaterThan(1);
    // The JSON route reads the same schema and answers 400 with the same names.
    const res = await page.request.get(`${base()}/api/console/audit?action=not-an-action&action=x.y`);
    expect(res.status()).toBe(400);
    expect(await res.json()).toEqual({ ok: false, error: "invalid query", fieldErrors: { action: ["given more than once"] } });
  });
});
