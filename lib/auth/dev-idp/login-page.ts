// The development provider's sign-in page: plain, accessible HTML (labels, landmarks, a visible
// focus ring), with the demo accounts listed because this provider exists only for demos and tests.
import { allDevAccounts, DEMO_PASSWORD } from "./accounts";
import { escapeHtml } from "./provider";

export function loginPage(opts: { uid: string; clientName: string; prefix: string; title: string; error?: string; login?: string }): string {
  const accounts = allDevAccounts()
    .map((a) => `<tr><td><code>${escapeHtml(a.login)}</code></td><td>${escapeHtml(a.roles.join(", ") || "end user")}</td><td>${escapeHtml(a.tenant)}</td></tr>`)
    .join("");
  const uid = encodeURIComponent(opts.uid);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in: ${escapeHtml(opts.title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#0f172a;background:#fff}
label{display:block;margin-top:1rem;font-weight:600}
input{display:block;width:100%;padding:.5rem;margin-top:.25rem;border:1px solid #475569;border-radius:.25rem;font-size:1rem}
button,a.button{display:inline-block;margin-top:1rem;margin-right:.5rem;padding:.5rem 1rem;border-radius:.25rem;font-size:1rem;border:1px solid #1d4ed8}
button{background:#1d4ed8;color:#fff}
a.button{color:#1d4ed8;text-decoration:none;background:#fff}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.error{color:#991b1b;font-weight:600}
table{border-collapse:collapse;margin-top:.5rem}td,th{border-bottom:1px solid #cbd5e1;padding:.25rem .75rem;text-align:left}
.note{background:#fef3c7;border:1px solid #b45309;padding:.5rem;border-radius:.25rem}
</style>
</head>
<body>
<main>
<h1>Sign in to ${escapeHtml(opts.title)}</h1>
<p class="note">A development provider. Not for production. Every demo account's password is <code>${DEMO_PASSWORD}</code>.</p>
<p><strong>${escapeHtml(opts.clientName)}</strong> asks you to sign in.</p>
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
<table><thead><tr><th scope="col">Login</th><th scope="col">Role</th><th scope="col">Tenant</th></tr></thead><tbody>${accounts}</tbody></table>
</main>
</body>
</html>`;
}
