// The one HTML frame of every page the bundled provider renders itself (sign-in, consent, consents,
// device code, sign-out): plain, accessible markup (landmarks, labels, a visible focus ring). The
// caller passes escaped HTML for the body; the title is escaped here.
import { escapeHtml } from "./escape-html";

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#0f172a;background:#fff}
label{display:block;margin-top:1rem;font-weight:600}
input{display:block;width:100%;padding:.5rem;margin-top:.25rem;border:1px solid #475569;border-radius:.25rem;font-size:1rem}
button,a.button{display:inline-block;margin-top:1rem;margin-right:.5rem;padding:.5rem 1rem;border-radius:.25rem;font-size:1rem;border:1px solid #1d4ed8}
button{background:#1d4ed8;color:#fff}
button.secondary,a.button{color:#1d4ed8;text-decoration:none;background:#fff}
:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.error{color:#991b1b;font-weight:600}
table{border-collapse:collapse;margin-top:.5rem}td,th{border-bottom:1px solid #cbd5e1;padding:.25rem .75rem;text-align:left;vertical-align:top}
.note{background:#fef3c7;border:1px solid #b45309;padding:.5rem;border-radius:.25rem}
.host{background:#fde68a;font-weight:700;padding:0 .25rem;border-radius:.2rem}
.code{font-size:1.5rem;letter-spacing:.1em}
code{overflow-wrap:anywhere}`;

export function pageShell(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
${STYLE}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`;
}
