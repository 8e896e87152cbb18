// Acceptance (URL mode), the whole flow in Chromium: an MCP client calls list_repositories and
// receives the URL; the browser signs in as the same user, continues at the provider, the callback
// completes, and the retried call returns the repositories. Also: another user opening the link is
// refused, and the connect page passes axe-core and works from the keyboard.
import path from "node:path";
import { describe, expect, inject, it } from "vitest";
import { seriousA11yViolations, SHOTS, useBrowser } from "../helpers/browser";
import { runCli } from "../helpers/cli";
import { connectClient } from "../helpers/mcp-client";
import { finishAtProvider, signIn } from "../helpers/sign-in";

const browser = useBrowser();

async function token(subject: string) {
  const r = await runCli(["token", "--subject", subject], inject("appEnv"));
  return r.stdout.trim();
}

describe("URL mode in the browser", () => {
  it("connects Demo Git for the same user and the retried call lists the repositories", async () => {
    const base = inject("baseUrl");
    const c = await connectClient(`${base}/api/mcp`, await token("user-alice-1001"), {
      name: "e2e-url",
      capabilities: { elicitation: { url: {} } },
      answer: () => ({ action: "accept" }),
    });
    const first = await c.call("list_repositories");
    expect(first.structured).toMatchObject({ outcome: "connect_pending" });
    const url = String(c.received[0]!.url);
    expect(url).toBe(`${base}/connect/${first.structured.elicitationId}`);

    // Another user who gets hold of the link sees nothing useful.
    const other = await browser().newContext();
    const op = await other.newPage();
    await signIn(op, base, "mallory", new URL(url).pathname);
    expect(await op.getByTestId("connect-problem").getAttribute("data-problem")).toBe("mismatch");
    await other.close();

    // The same page in the dark theme (it follows the system setting): accessible, screenshotted.
    const dark = await browser().newContext({ colorScheme: "dark" });
    const darkPage = await dark.newPage();
    await signIn(darkPage, base, "alice", new URL(url).pathname);
    expect(await seriousA11yViolations(darkPage)).toEqual([]);
    await darkPage.screenshot({ path: path.join(SHOTS, "connect-dark.png"), fullPage: true });
    await dark.close();

    const context = await browser().newContext();
    const page = await context.newPage();
    await signIn(page, base, "alice", new URL(url).pathname);
    expect(await page.getByTestId("provider-domain").textContent()).toBe("localhost");
    expect(await page.getByTestId("connect-purpose").textContent()).toBe("Read your repositories on Demo Git");
    expect(await seriousA11yViolations(page)).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, "connect.png"), fullPage: true });
    // Keyboard only: Tab to Continue and press Enter.
    const continueButton = page.getByRole("button", { name: "Continue to Demo Git" });
    for (let i = 0; i < 20 && !(await continueButton.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/dev\/downstream\/interaction\//);
    expect(await finishAtProvider(page, "alice")).toBe("connected");
    await context.close();

    const again = await c.call("list_repositories");
    expect(again.structured).toMatchObject({ outcome: "completed", repositories: ["acme/reports", "acme/infrastructure", "acme/website"] });
    await c.close();
  });
});
