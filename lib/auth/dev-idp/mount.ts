// Serves the development provider inside the app server: its sign-in interaction, its OAuth and
// OIDC endpoints under /oidc, and the RFC 8414 path-inserted metadata URL MCP clients try first.
import type http from "node:http";
import type Provider from "oidc-provider";
import { logger } from "@/lib/log/logger";
import { checkLogin } from "./accounts";
import { loginPage } from "./login-page";

const MAX_BODY = 8 * 1024;

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > MAX_BODY) throw new Error("form too large");
  }
  return new URLSearchParams(body);
}

// No form-action directive: browsers apply it to the redirect chain after the login POST, which
// ends at the client's own redirect URI (another origin for MCP clients).
function html(res: http.ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "x-frame-options": "DENY", "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'" });
  res.end(body);
}

/** Returns true when the request belonged to the provider mounted at `prefix` and was answered. */
export function createDevIdpHandler(provider: Provider, prefix = "/oidc", title = "development identity provider") {
  const callback = provider.callback();
  const interactionPath = new RegExp(`^${prefix}/interaction/([A-Za-z0-9_-]+)(?:/(login|abort))?$`);
  const wellKnown = [`/.well-known/oauth-authorization-server${prefix}`, `/.well-known/openid-configuration${prefix}`];
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? "/", "http://internal");
    if (wellKnown.includes(url.pathname)) req.url = `${prefix}/.well-known/openid-configuration`;
    const interaction = interactionPath.exec(url.pathname);
    if (interaction) {
      await handleInteraction(provider, req, res, interaction[2], prefix, title);
      return true;
    }
    if (req.url === prefix || req.url?.startsWith(`${prefix}/`) || req.url?.startsWith(`${prefix}?`)) {
      // oidc-provider derives its mount path from originalUrl minus url (as under Express).
      (req as http.IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = req.url.slice(prefix.length) || "/";
      callback(req, res);
      return true;
    }
    return false;
  };
}

async function handleInteraction(provider: Provider, req: http.IncomingMessage, res: http.ServerResponse, action: string | undefined, prefix: string, title: string): Promise<void> {
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    html(res, 400, "<!doctype html><html lang=\"en\"><head><title>Sign-in expired</title></head><body><main><h1>This sign-in has expired</h1><p>Start again from the application.</p></main></body></html>");
    return;
  }
  const client = await provider.Client.find(String(details.params.client_id));
  const clientName = client?.clientName ?? String(details.params.client_id);
  if (action === "abort") {
    await provider.interactionFinished(req, res, { error: "access_denied", error_description: "sign-in cancelled" }, { mergeWithLastSubmission: false });
    return;
  }
  if (details.prompt.name === "login") {
    if (action !== "login" || req.method !== "POST") {
      html(res, 200, loginPage({ uid: details.uid, clientName, prefix, title }));
      return;
    }
    const form = await readForm(req);
    const account = checkLogin(form.get("login") ?? "", form.get("password") ?? "");
    if (!account) {
      logger.info({ event: "dev_idp.login_failed" }, "development sign-in refused");
      html(res, 401, loginPage({ uid: details.uid, clientName, prefix, title, error: "Unknown login or wrong password.", login: form.get("login") ?? "" }));
      return;
    }
    await provider.interactionFinished(req, res, { login: { accountId: account.subject } }, { mergeWithLastSubmission: false });
    return;
  }
  // Consent: this first-party provider grants what was asked (loadExistingGrant normally does).
  const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
  if (!grant) throw new Error("grant vanished during consent");
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[]; missingResourceScopes?: Record<string, string[]> };
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}
