// Serves the development provider inside the app server: its sign-in and consent interactions, the
// signed-in user's consent list (/consents), its OAuth and OIDC endpoints under the prefix, and the
// RFC 8414 path-inserted metadata URL MCP clients try first.
import { readSetting } from "@/lib/config/schema";
import type http from "node:http";
import type Provider from "oidc-provider";
import { logger } from "@/lib/log/logger";
import { checkLogin } from "./accounts";
import { consentPage, consentsPage, type ConsentRow } from "./consent-page";
import { csrfFor, csrfMatches, isSameOriginForm } from "./form-guard";
import { loginPage, throttledPage } from "./login-page";
import { pageShell } from "./page-shell";
import { providerInfo, rememberedGrantId } from "./provider";
import { clientAddress } from "@/lib/abuse/client-address";
import { createSignInThrottle, signInThrottleSettings, type SignInThrottle } from "./sign-in-throttle";

const MAX_BODY = 8 * 1024;
// Models whose records hang off a grant: withdrawing consent removes them with it.
const GRANT_MEMBERS = ["AccessToken", "AuthorizationCode", "RefreshToken", "DeviceCode", "BackchannelAuthenticationRequest"];

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams | undefined> {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > MAX_BODY) return undefined;
  }
  return new URLSearchParams(body);
}

// No form-action directive: browsers apply it to the redirect chain after the login POST, which
// ends at the client's own redirect URI (another origin for MCP clients).
function html(res: http.ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "cache-control": "no-store",
    "x-frame-options": "DENY",
    "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    ...headers,
  });
  res.end(body);
}

function refusal(res: http.ServerResponse, status: number, title: string, text: string): void {
  html(res, status, pageShell(title, `<h1>${title}</h1><p>${text}</p>`));
}

export interface DevIdpHandlerOptions {
  prefix?: string;
  title?: string;
  throttle?: SignInThrottle;
}

/** Returns true when the request belonged to the provider mounted at `prefix` and was answered. */
export function createDevIdpHandler(provider: Provider, options: DevIdpHandlerOptions = {}) {
  const prefix = options.prefix ?? "/oidc";
  const title = options.title ?? "development identity provider";
  const info = providerInfo(provider);
  const throttle = options.throttle ?? createSignInThrottle(signInThrottleSettings(info.env));
  const ctx: HandlerContext = { provider, prefix, title, throttle, origin: new URL(info.issuer).origin };
  const callback = provider.callback();
  const interactionPath = new RegExp(`^${prefix}/interaction/([A-Za-z0-9_-]+)(?:/(login|abort|consent))?$`);
  const wellKnown = [`/.well-known/oauth-authorization-server${prefix}`, `/.well-known/openid-configuration${prefix}`];
  return async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    const url = new URL(req.url ?? "/", "http://internal");
    if (wellKnown.includes(url.pathname)) req.url = `${prefix}/.well-known/openid-configuration`;
    const interaction = interactionPath.exec(url.pathname);
    if (interaction) {
      await handleInteraction(ctx, req, res, interaction[2]);
      return true;
    }
    if (url.pathname === `${prefix}/consents` || url.pathname === `${prefix}/consents/withdraw`) {
      await handleConsents(ctx, req, res, url);
      return true;
    }
    if (req.url === prefix || req.url?.startsWith(`${prefix}/`) || req.url?.startsWith(`${prefix}?`)) {
      // None of the provider's own pages (sign-out, device code) may be framed: each asks for a click.
      res.setHeader("x-frame-options", "DENY");
      res.setHeader("content-security-policy", "frame-ancestors 'none'");
      // oidc-provider derives its mount path from originalUrl minus url (as under Express).
      (req as http.IncomingMessage & { originalUrl?: string }).originalUrl = req.url;
      req.url = req.url.slice(prefix.length) || "/";
      callback(req, res);
      return true;
    }
    return false;
  };
}

interface HandlerContext {
  provider: Provider;
  prefix: string;
  title: string;
  throttle: SignInThrottle;
  origin: string;
}

async function handleInteraction(
  h: HandlerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  action: string | undefined,
): Promise<void> {
  const { provider, prefix, title } = h;
  let details;
  try {
    details = await provider.interactionDetails(req, res);
  } catch {
    refusal(res, 400, "This sign-in has expired", "Start again from the application.");
    return;
  }
  const clientId = String(details.params.client_id);
  const client = await provider.Client.find(clientId);
  const clientName = client?.clientName ?? clientId;
  if (action === "abort") {
    await provider.interactionFinished(
      req,
      res,
      { error: "access_denied", error_description: "sign-in cancelled" },
      { mergeWithLastSubmission: false },
    );
    return;
  }
  if (details.prompt.name === "login") {
    if (action !== "login" || req.method !== "POST") {
      html(res, 200, loginPage({ uid: details.uid, clientName, prefix, title }));
      return;
    }
    await handleLogin(h, req, res, details.uid, clientName);
    return;
  }
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const accountId = details.session?.accountId;
  if (details.prompt.name !== "consent" || !accountId) {
    refusal(res, 400, "This sign-in cannot continue", "Start again from the application.");
    return;
  }
  const firstParty = providerInfo(provider).firstParty.has(clientId);
  if (!firstParty) {
    // A client anyone could have registered: ask the user, and do nothing until they answer.
    const csrf = csrfFor(provider, "consent", details.uid);
    if (action !== "consent" || req.method !== "POST") {
      const redirectUri = typeof details.params.redirect_uri === "string" ? details.params.redirect_uri : "(device sign-in: no redirect)";
      html(
        res,
        200,
        consentPage({
          prefix,
          uid: details.uid,
          csrf,
          title,
          view: {
            clientId,
            clientName: client?.clientName,
            redirectUri,
            scopes: missing.missingOIDCScope ?? [],
            resources: missing.missingResourceScopes ?? {},
          },
        }),
      );
      return;
    }
    const form = await readForm(req);
    if (!form || !isSameOriginForm(req, h.origin) || !csrfMatches(csrf, form.get("csrf"))) {
      refusal(res, 403, "Request refused", "This form did not come from this page. Nothing was changed.");
      return;
    }
    const decision = form.get("decision");
    if (decision === "deny") {
      await provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "the user denied access" },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (decision !== "allow") {
      refusal(res, 400, "Choose Allow or Deny", "Nothing was changed.");
      return;
    }
  }
  // Allowed (or first-party): the grant gets exactly what the request was missing.
  const existing = details.grantId ? await provider.Grant.find(details.grantId) : undefined;
  const grant = existing ?? new provider.Grant({ accountId, clientId });
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {}))
    grant.addResourceScope(indicator, scopes.join(" "));
  await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
}

async function handleLogin(
  h: HandlerContext,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  uid: string,
  clientName: string,
): Promise<void> {
  const { provider, prefix, title, throttle } = h;
  const form = await readForm(req);
  if (!form) {
    refusal(res, 413, "Request too large", "Nothing was changed.");
    return;
  }
  const login = form.get("login") ?? "";
  const address = clientAddress(req, readSetting(providerInfo(provider).env, "TRUST_PROXY") === true);
  const wait = await throttle.retryAfter(login, address);
  if (wait !== undefined) {
    // Not logged: a blocked attacker's every request would otherwise become a log line.
    html(res, 429, throttledPage(title, wait), { "retry-after": String(wait) });
    return;
  }
  const account = checkLogin(login, form.get("password") ?? "");
  if (!account) {
    await throttle.failed(login, address);
    logger.info({ event: "dev_idp.login_failed" }, "development sign-in refused");
    html(res, 401, loginPage({ uid, clientName, prefix, title, error: "Unknown login or wrong password.", login: login.slice(0, 200) }));
    return;
  }
  await throttle.succeeded(login);
  await provider.interactionFinished(req, res, { login: { accountId: account.subject } }, { mergeWithLastSubmission: false });
}

async function handleConsents(h: HandlerContext, req: http.IncomingMessage, res: http.ServerResponse, url: URL): Promise<void> {
  const { provider, prefix, title } = h;
  const info = providerInfo(provider);
  const session = await provider.Session.get(provider.createContext(req, res));
  const accountId = session.accountId;
  if (!accountId) {
    refusal(res, 401, "Not signed in", "Sign in through an application first; this page lists the applications you allowed.");
    return;
  }
  const csrf = csrfFor(provider, "consents", session.uid);
  if (url.pathname.endsWith("/withdraw")) {
    const form = req.method === "POST" ? await readForm(req) : undefined;
    if (!form || !isSameOriginForm(req, h.origin) || !csrfMatches(csrf, form.get("csrf"))) {
      refusal(res, 403, "Request refused", "This form did not come from this page. Nothing was changed.");
      return;
    }
    const grant = await provider.Grant.find(form.get("grant") ?? "");
    if (!grant || grant.accountId !== accountId || info.firstParty.has(grant.clientId ?? "")) {
      refusal(res, 404, "No such consent", "Nothing was changed.");
      return;
    }
    // Every grant this user gave this client goes, with the codes and tokens issued under it.
    for (const record of await info.records.listByAccount("Grant", accountId)) {
      if (record.payload.clientId !== grant.clientId) continue;
      for (const model of GRANT_MEMBERS) await info.records.removeByGrant(model, record.id);
      await info.records.remove("Grant", record.id);
    }
    logger.info({ event: "dev_idp.consent_withdrawn" }, "consent withdrawn");
    res.writeHead(303, { location: `${prefix}/consents?withdrawn=1`, "cache-control": "no-store" }).end();
    return;
  }
  const rows: ConsentRow[] = [];
  for (const record of await info.records.listByAccount("Grant", accountId)) {
    const clientId = String(record.payload.clientId ?? "");
    if (info.firstParty.has(clientId) || (await rememberedGrantId(info.records, accountId, clientId)) !== record.id) continue;
    const client = await provider.Client.find(clientId);
    const payload = record.payload as { openid?: { scope?: string }; resources?: Record<string, string> };
    rows.push({
      grantId: record.id,
      clientId,
      clientName: client?.clientName,
      redirectUris: [...(client?.redirectUris ?? [])],
      scopes: (payload.openid?.scope ?? "").split(" ").filter(Boolean),
      resources: Object.fromEntries(Object.entries(payload.resources ?? {}).map(([r, s]) => [r, s.split(" ")])),
    });
  }
  html(
    res,
    200,
    consentsPage({
      prefix,
      title,
      csrf,
      subject: accountId,
      rows,
      message: url.searchParams.get("withdrawn") === "1" ? "Consent withdrawn." : undefined,
    }),
  );
}
