// The consent screen for dynamically registered clients, and the page that lists and withdraws
// consents. Everything a client declared about itself (its name) is escaped and labelled as
// self-declared; what the provider itself checks (the redirect URI it will send the code to) is
// shown in full with its host highlighted, because that host is who receives the user's token.
import { escapeHtml, untrustedText } from "./escape-html";
import { pageShell } from "./page-shell";

export interface ConsentView {
  clientId: string;
  clientName: string | undefined;
  redirectUri: string;
  scopes: string[];
  resources: Record<string, string[]>;
}

function hostOf(uri: string): string {
  try {
    return new URL(uri).host || uri;
  } catch {
    return uri;
  }
}

function clientLine(v: { clientId: string; clientName: string | undefined }): string {
  const name = v.clientName
    ? `<strong>${untrustedText(v.clientName)}</strong> <small>(name declared by the client itself, not verified)</small>`
    : "<strong>An unnamed client</strong>";
  return `${name}, client id <code>${untrustedText(v.clientId)}</code>`;
}

function resourceList(scopes: string[], resources: Record<string, string[]>): string {
  const items = [
    ...scopes.map((s) => `<li>sign-in scope <code>${escapeHtml(s)}</code></li>`),
    ...Object.entries(resources).map(
      ([r, s]) => `<li>access to <code>${escapeHtml(r)}</code> with scope <code>${escapeHtml(s.join(" "))}</code></li>`,
    ),
  ];
  return items.length ? `<ul>${items.join("")}</ul>` : "<p>No additional access.</p>";
}

export function consentPage(opts: { prefix: string; uid: string; csrf: string; title: string; view: ConsentView }): string {
  const v = opts.view;
  const host = hostOf(v.redirectUri);
  return pageShell(
    `Allow access? ${opts.title}`,
    `<h1>Allow this application to act as you?</h1>
<p>${clientLine(v)} asks for:</p>
${resourceList(v.scopes, v.resources)}
<p>If you allow it, your sign-in is sent to <span class="host">${untrustedText(host)}</span>:</p>
<p><code>${untrustedText(v.redirectUri)}</code></p>
<p class="note">Allow only if you started this from an application you trust and it is meant to send you to ${untrustedText(host)}. You can withdraw this later at <a href="${opts.prefix}/consents">your consents</a>.</p>
<form method="post" action="${opts.prefix}/interaction/${encodeURIComponent(opts.uid)}/consent">
<input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" class="secondary" name="decision" value="deny">Deny</button>
</form>`,
  );
}

export interface ConsentRow {
  grantId: string;
  clientId: string;
  clientName: string | undefined;
  redirectUris: string[];
  scopes: string[];
  resources: Record<string, string[]>;
}

export function consentsPage(opts: {
  prefix: string;
  title: string;
  csrf: string;
  subject: string;
  rows: ConsentRow[];
  message?: string;
}): string {
  const rows = opts.rows
    .map(
      (
        r,
      ) => `<tr><td>${clientLine(r)}</td><td>${r.redirectUris.map((u) => `<span class="host">${untrustedText(hostOf(u))}</span><br><code>${untrustedText(u)}</code>`).join("<br>")}</td><td>${resourceList(r.scopes, r.resources)}</td>
<td><form method="post" action="${opts.prefix}/consents/withdraw"><input type="hidden" name="csrf" value="${escapeHtml(opts.csrf)}"><input type="hidden" name="grant" value="${escapeHtml(r.grantId)}"><button type="submit">Withdraw</button></form></td></tr>`,
    )
    .join("");
  return pageShell(
    `Your consents: ${opts.title}`,
    `<h1>Applications you allowed</h1>
<p>Signed in as <code>${escapeHtml(opts.subject)}</code>.</p>
${opts.message ? `<p role="status">${escapeHtml(opts.message)}</p>` : ""}
${rows ? `<table><thead><tr><th scope="col">Application</th><th scope="col">Sends you to</th><th scope="col">Access</th><th scope="col"></th></tr></thead><tbody>${rows}</tbody></table>` : "<p>You have not allowed any application.</p>"}`,
  );
}
