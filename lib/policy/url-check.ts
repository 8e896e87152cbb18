// The URL check for URL-mode elicitation: every URL the engine emits and every origin an admin
// allowlists passes through it. Blocks non-HTTPS schemes (loopback HTTP only in development),
// userinfo, URLs that parsers disagree on (url-authority.ts), and credentials or personal data in
// the query or fragment; warns on hosts a person cannot read reliably (punycode, IDN, mixed
// scripts, IP literals, another domain inside the host), showing both forms.
import { domainToUnicode } from "node:url";
import { credentialShape } from "@/lib/elicitation/credential-scan";
import { authorityFindings, rawTextFindings } from "./url-authority";

export type UrlVerdict = "allow" | "warn" | "block";

export interface UrlReason {
  code: string;
  severity: "warn" | "block";
  detail: string;
}

export interface UrlCheck {
  verdict: UrlVerdict;
  host: string | null;
  unicodeHost: string | null;
  reasons: UrlReason[];
}

const CREDENTIAL_PARAM =
  /^(?:access_?token|id_?token|refresh_?token|token|auth|authorization|bearer|jwt|password|passwd|pwd|secret|client_?secret|api_?key|apikey|key|session|session_?id|sid|sig|signature|code|otp|pin|credentials?)$/i;
const PII_PARAM =
  /^(?:e?-?mail|email_?address|phone|tel|mobile|name|first_?name|last_?name|full_?name|user_?name|username|login|ssn|dob|birth_?date|address|iban|card)$/i;
const EMAIL_VALUE = /[^\s@]+@[^\s@]+\.[^\s@]+/;
const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

function scriptsOf(label: string): Set<string> {
  const scripts = new Set<string>();
  for (const ch of label) {
    if (/\p{Script=Latin}/u.test(ch)) scripts.add("Latin");
    else if (/\p{Script=Cyrillic}/u.test(ch)) scripts.add("Cyrillic");
    else if (/\p{Script=Greek}/u.test(ch)) scripts.add("Greek");
    else if (/\p{Script=Armenian}/u.test(ch)) scripts.add("Armenian");
    else if (/\p{L}/u.test(ch)) scripts.add("Other");
  }
  return scripts;
}

export function checkUrl(raw: string, options: { dev?: boolean } = {}): UrlCheck {
  const reasons: UrlReason[] = [];
  const block = (code: string, detail: string) => reasons.push({ code, severity: "block", detail });
  const warn = (code: string, detail: string) => reasons.push({ code, severity: "warn", detail });
  // The raw text is judged as given (no trim): what a parser would silently repair is a finding.
  reasons.push(...rawTextFindings(raw));
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    reasons.push({ code: "unparseable", severity: "block", detail: "not a valid absolute URL" });
    return { verdict: "block", host: null, unicodeHost: null, reasons };
  }
  const hostname = url.hostname;
  const bare = hostname.replace(/^\[|\]$/g, "");
  const host = hostname || null;
  const unicodeHost = hostname ? domainToUnicode(hostname) || hostname : null;

  if (url.protocol === "http:") {
    if (!(options.dev && isLoopbackHost(hostname)))
      block(
        "not_https",
        options.dev ? "plain HTTP is allowed only for loopback hosts in development" : "URL mode requires HTTPS outside development",
      );
  } else if (url.protocol !== "https:") {
    block("scheme", `scheme ${url.protocol.replace(/:$/, "")} is not allowed; only https`);
  }
  if (url.username || url.password) block("userinfo", "credentials in the URL (user:pass@host) are not allowed");
  if (url.protocol === "https:" || url.protocol === "http:") {
    for (const f of authorityFindings(raw, url)) if (!reasons.some((r) => r.code === f.code)) reasons.push(f);
  }

  const params = [...url.searchParams.entries(), ...new URLSearchParams(url.hash.replace(/^#/, "")).entries()];
  for (const [key, value] of params) {
    // The same detector as form answers (gitleaks' rules after normalisation), on the decoded
    // value and on "key=value" so assignment-shaped secrets are seen too.
    if (CREDENTIAL_PARAM.test(key) || credentialShape(value) || credentialShape(`${key}=${value}`))
      block("credential_in_url", `parameter "${key}" carries a credential`);
    else if (PII_PARAM.test(key) || EMAIL_VALUE.test(value)) block("pii_in_url", `parameter "${key}" carries personal data`);
  }
  for (const segment of url.pathname.split("/")) {
    let decoded = segment;
    try {
      decoded = decodeURIComponent(segment);
    } catch {
      // a malformed escape is left as typed; it can still be checked as text
    }
    if (decoded && credentialShape(decoded)) block("credential_in_url", "a path segment carries a credential");
  }

  if (hostname && (url.protocol === "https:" || url.protocol === "http:")) {
    const isIp = IPV4.test(bare) || bare.includes(":");
    if (isIp && !(options.dev && isLoopbackHost(hostname))) warn("ip_literal", "an IP address hides who the user is talking to");
    if (!isIp) {
      const labels = unicodeHost!.split(".");
      if (hostname.split(".").some((l) => l.startsWith("xn--")))
        warn("idn", `internationalised host: shown as ${unicodeHost}, sent as ${hostname}`);
      for (const label of labels) {
        const scripts = scriptsOf(label);
        if (scripts.size > 1) warn("mixed_script", `label "${label}" mixes ${[...scripts].join(" and ")} letters`);
        else if (scripts.has("Cyrillic") || scripts.has("Greek"))
          warn("confusable_script", `label "${label}" uses ${[...scripts][0]} letters that look like Latin ones`);
      }
    }
  }
  const verdict: UrlVerdict = reasons.some((r) => r.severity === "block") ? "block" : reasons.length ? "warn" : "allow";
  return { verdict, host, unicodeHost, reasons };
}
