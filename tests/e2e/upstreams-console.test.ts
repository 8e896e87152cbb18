// The Upstreams page in Chromium: an admin adds an upstream through the form (checked and audited
// on the server) and removes it; a bad URL is refused next to the control and keeps what was typed;
// a viewer sees the table but no controls. The page passes axe-core.
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

describe("upstreams page", () => {
  it("an admin adds and removes an upstream; a metadata URL is refused next to the control", async () => {
    const page = await as("admin", "/console/upstreams");
    const form = page.getByRole("form", { name: "Add an upstream MCP server" });
    await form.getByLabel("Id (letters, digits)").fill("tickets");
    await form.getByLabel("Display name").fill("Tickets");
    await form.getByLabel("Streamable HTTP URL").fill("http://169.254.169.254/mcp");
    await form.getByLabel("Tenants (comma-separated)").fill("acme");
    await form.getByRole("button", { name: "Add upstream" }).click();
    await expect.poll(() => form.getByRole("status").textContent()).toContain("Refused");
    expect(await form.getByLabel("Id (letters, digits)").inputValue()).toBe("tickets");

    await form.getByLabel("Streamable HTTP URL").fill("https://tickets.example.com/mcp");
    await form.getByRole("button", { name: "Add upstream" }).click();
    await expect.poll(() => form.getByRole("status").textContent()).toContain("Added tickets");
    await page.reload();
    const table = page.getByTestId("upstreams-table");
    await expect.poll(() => table.textContent()).toContain("https://tickets.example.com/mcp");
    expect(await seriousA11yViolations(page)).toEqual([]);

    await page.getByRole("form", { name: "Remove upstream tickets" }).getByRole("button", { name: "Remove" }).click();
    await expect
      .poll(async () => (await page.reload(), await page.getByTestId("upstreams-table").textContent()))
      .not.toContain("tickets.example.com");
    await page.context().close();
  }, 120_000);

  it("a viewer sees the page without controls", async () => {
    const page = await as("viewer", "/console/upstreams");
    await page.getByTestId("upstreams-table").waitFor();
    expect(await page.getByRole("form", { name: "Add an upstream MCP server" }).count()).toBe(0);
    await page.context().close();
  }, 120_000);
});
