// Runs the real `ctl login` and completes its device authorization grant the way an operator would
// in a browser: open the printed address, confirm the code, sign in at the provider.
import { expect } from "vitest";
import { startCli, type CliResult } from "./cli";
import { formsOf, ProviderBrowser, signIn } from "./provider-browser";

export async function ctlLogin(login: string, env: Record<string, string | undefined>): Promise<CliResult> {
  const cli = startCli(["login"], env);
  const [, uri] = await cli.waitForStderr(/\(or open (\S+)\)/);
  const browser = new ProviderBrowser();
  // verification_uri_complete answers with an auto-posting form; a browser would submit it.
  const posting = await browser.go(uri!);
  const toConfirm = await browser.submit(formsOf(posting.html, posting.url)[0]!);
  expect(toConfirm.html).toContain("ctl, the operator command line");
  const confirm = formsOf(toConfirm.html, toConfirm.url).find((f) => f.fields.confirm === "yes")!;
  const loginPage = await browser.submit(confirm);
  const done = await signIn(browser, loginPage, login);
  expect(done.html).toContain("is signed in");
  return cli.done;
}
