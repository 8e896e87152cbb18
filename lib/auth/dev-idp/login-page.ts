// The development provider's sign-in page, with the demo accounts listed because this provider
// exists only for demos and tests.
import { allDevAccounts, DEMO_PASSWORD } from "./accounts";
import { escapeHtml, untrustedText } from "./escape-html";
import { pageShell } from "./page-shell";

export function loginPage(opts: {
  uid: string;
  clientName: string;
  prefix: string;
  title: string;
  error?: string;
  login?: string;
}): string {
  const accounts = allDevAccounts()
    .map(
      (a) =>
        `<tr><td><code>${escapeHtml(a.login)}</code></td><td>${escapeHtml(a.roles.join(", ") || "end user")}</td><td>${escapeHtml(a.tenant)}</td></tr>`,
    )
    .join("");
  const uid = encodeURIComponent(opts.uid);
  return pageShell(
    `Sign in: ${opts.title}`,
    `<h1>Sign in to ${escapeHtml(opts.title)}</h1>
<p class="note">A development provider. Not for production. Every demo account's password is <code>${DEMO_PASSWORD}</code>.</p>
<p><strong>${untrustedText(opts.clientName)}</strong> asks you to sign in.</p>
${opts.error ? `<p class="error" role="alert">${escapeHtml(opts.error)}</p>` : ""}
<form method="post" action="${opts.prefix}/interaction/${uid}/login">
<label for="login">Login</label>
<input id="login" name="login" autocomplete="username" required autofocus value="${escapeHtml(opts.login ?? "")}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<button type="submit">Sign in</button>
<a class="button" href="${opts.prefix}/interaction/${uid}/abort">Cancel</a>
</form>
<h2>Demo accounts</h2>
<table><thead><tr><th scope="col">Login</th><th scope="col">Role</th><th scope="col">Tenant</th></tr></thead><tbody>${accounts}</tbody></table>`,
  );
}

export function throttledPage(title: string, retryAfterSeconds: number): string {
  const minutes = Math.ceil(retryAfterSeconds / 60);
  return pageShell(
    `Too many attempts: ${title}`,
    `<h1>Too many sign-in attempts</h1>
<p class="error" role="alert">Too many wrong passwords for this login or from this address. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.</p>`,
  );
}
