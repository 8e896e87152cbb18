// The Content-Security-Policy of every page, built per request around a fresh nonce: Next.js reads
// the nonce from the request's CSP header and puts it on its own inline scripts, so no script runs
// unless the server rendered it in this response ('strict-dynamic' lets those load their chunks).
// Pure and free of Node.js imports: it runs in proxy.ts.
//
// Not set: form-action. Browsers apply it to the redirects after a form post, and the sign-in and
// connect forms end at the identity provider or the downstream provider, which are other origins in
// a real deployment. style-src allows inline styles because charts and React style attributes
// render them; scripts, the part that matters for injection, are nonce-only.
export function contentSecurityPolicy(nonce: string, opts: { dev: boolean; https: boolean }): string {
  const directives = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${opts.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self'${opts.dev ? " ws:" : ""}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    ...(opts.https ? ["upgrade-insecure-requests"] : []),
  ];
  return directives.join("; ");
}

/** A 128-bit nonce, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/** HSTS for deployments served over HTTPS (two years, subdomains included); none over plain HTTP. */
export function strictTransportSecurity(appUrl: string | undefined): string | undefined {
  return appUrl?.trim().toLowerCase().startsWith("https://") ? "max-age=63072000; includeSubDomains" : undefined;
}
