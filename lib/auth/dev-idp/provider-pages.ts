// The pages oidc-provider renders itself, replaced so that each one escapes what it shows, names the
// client asking, and never acts without a click: sign-out asks for confirmation (its form carries
// oidc-provider's per-session xsrf token), and the device-code pages show the client and the code
// before the operator confirms. The default pages load web fonts from a third party; these do not.
import type { KoaContextWithOIDC } from "oidc-provider";
import { escapeHtml } from "./escape-html";
import { pageShell } from "./page-shell";
import { providerInfo } from "./provider";

function send(ctx: KoaContextWithOIDC, title: string, body: string): void {
  ctx.type = "html";
  ctx.body = pageShell(title, body);
}

function clientLabel(client: { clientId: string; clientName?: string } | undefined): string {
  if (!client) return "";
  const name = client.clientName
    ? `<strong>${escapeHtml(client.clientName)}</strong> (client id <code>${escapeHtml(client.clientId)}</code>)`
    : `client <code>${escapeHtml(client.clientId)}</code>`;
  return name;
}

export async function logoutSource(ctx: KoaContextWithOIDC, form: string): Promise<void> {
  const client = ctx.oidc.client;
  send(
    ctx,
    "Sign out?",
    `<h1>Sign out of ${escapeHtml(ctx.host)}?</h1>
${client ? `<p>${clientLabel(client)} asks to sign you out.</p>` : ""}
<p>Nothing happens until you choose.</p>
${form}
<button type="submit" form="op.logoutForm" name="logout" value="yes">Yes, sign me out</button>
<a class="button" href="/">No, stay signed in</a>`,
  );
}

export async function postLogoutSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  send(ctx, "Signed out", "<h1>You are signed out</h1>");
}

export async function userCodeInputSource(
  ctx: KoaContextWithOIDC,
  form: string,
  _out: unknown,
  err?: Error & { userCode?: string },
): Promise<void> {
  let msg = "<p>Enter the code your command line shows.</p>";
  if (err && (err.userCode || err.name === "NoCodeError"))
    msg = '<p class="error" role="alert">That code is not valid. Check it and try again.</p>';
  else if (err?.name === "AbortedError") msg = '<p class="error" role="alert">The sign-in was cancelled.</p>';
  else if (err) msg = '<p class="error" role="alert">The sign-in could not be completed. Start again from the command line.</p>';
  send(ctx, "Device sign-in", `<h1>Sign in a device</h1>${msg}${form}<button type="submit" form="op.deviceInputForm">Continue</button>`);
}

export async function userCodeConfirmSource(
  ctx: KoaContextWithOIDC,
  form: string,
  client: { clientId: string; clientName?: string },
  deviceInfo: Record<string, unknown> | undefined,
  userCode: string,
): Promise<void> {
  // A client registered through /reg named itself: say so, as the consent screen does.
  const declared = providerInfo(ctx.oidc.provider).firstParty.has(client.clientId)
    ? ""
    : "<p><small>The name was declared by the client itself and is not verified.</small></p>";
  const ip = typeof deviceInfo?.ip === "string" ? deviceInfo.ip : "unknown";
  const ua = typeof deviceInfo?.ua === "string" ? deviceInfo.ua : "unknown";
  send(
    ctx,
    "Confirm device sign-in",
    `<h1>Sign in ${clientLabel(client)}?</h1>
${declared}
<p>Your command line must show this code:</p>
<p class="code"><code>${escapeHtml(userCode)}</code></p>
<p>The request came from address <code>${escapeHtml(ip)}</code>, program <code>${escapeHtml(ua)}</code>.</p>
<p class="note">Continue only if you started <code>ctl login</code> yourself and the code matches. Anyone who holds this sign-in can act as you.</p>
${form}
<button type="submit" form="op.deviceConfirmForm">Continue</button>
<button type="submit" class="secondary" form="op.deviceConfirmForm" name="abort" value="yes">Cancel</button>`,
  );
}

export async function deviceSuccessSource(ctx: KoaContextWithOIDC): Promise<void> {
  send(
    ctx,
    "Device signed in",
    `<h1>Signed in</h1><p>${clientLabel(ctx.oidc.client)} is signed in. You can close this page and return to your terminal.</p>`,
  );
}
