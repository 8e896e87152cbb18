// Parser-differential guard for the URL check. Browsers follow the WHATWG URL standard; servers,
// proxies, OAuth libraries and people read URLs in other ways. A URL is only judged when every
// reader sees the same scheme, host and port: characters on which readers split differently are
// refused outright (backslash, controls, whitespace, invisible format characters, "@" and "%" in
// the authority), and the authority as typed must be what the WHATWG parser serialises back,
// apart from the normalisations listed here (ASCII/Unicode case, a default port spelled out).
import { domainToUnicode } from "node:url";

export interface AuthorityFinding {
  code: string;
  severity: "warn" | "block";
  detail: string;
}

export const MAX_URL_LENGTH = 2048;
const DEFAULT_PORT: Record<string, string> = { "https:": "443", "http:": "80" };
// Generic TLDs that, seen in the middle of a host, make it read as another domain
// ("good.com.evil.com"). A short fixed list on purpose: country codes appear legitimately there.
const GENERIC_TLDS = new Set(["com", "net", "org", "edu", "gov", "mil", "int", "io", "co", "app", "dev", "ai"]);

/** Findings on the raw text itself, before any parser has had a chance to "repair" it. */
export function rawTextFindings(raw: string): AuthorityFinding[] {
  const out: AuthorityFinding[] = [];
  if (raw.length > MAX_URL_LENGTH) out.push({ code: "too_long", severity: "block", detail: `longer than ${MAX_URL_LENGTH} characters` });
  if (raw.includes("\\"))
    out.push({ code: "backslash", severity: "block", detail: "a backslash is read as / by browsers and as a literal by other parsers" });
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw))
    out.push({
      code: "control_character",
      severity: "block",
      detail: "control characters (tab, newline, NUL, ...) are silently dropped by some parsers",
    });
  if (/[\s\p{Z}]/u.test(raw))
    out.push({ code: "whitespace", severity: "block", detail: "whitespace (including Unicode spaces) is not allowed anywhere in the URL" });
  if (/[\p{Cf}\u034f\u115f\u1160\u3164\uffa0\p{Variation_Selector}]/u.test(raw)) {
    out.push({
      code: "invisible_character",
      severity: "block",
      detail: "invisible characters (zero-width, bidi controls, variation selectors, fillers) are not allowed",
    });
  }
  return out;
}

function splitHostPort(authority: string): { host: string; port: string | undefined } {
  if (authority.startsWith("[")) {
    const end = authority.indexOf("]");
    const rest = end < 0 ? "" : authority.slice(end + 1);
    return {
      host: end < 0 ? authority : authority.slice(0, end + 1),
      port: rest.startsWith(":") ? rest.slice(1) : rest ? rest : undefined,
    };
  }
  const colon = authority.lastIndexOf(":");
  return colon < 0 ? { host: authority, port: undefined } : { host: authority.slice(0, colon), port: authority.slice(colon + 1) };
}

/** For http(s) URLs: the authority as typed against the WHATWG serialisation. */
export function authorityFindings(raw: string, url: URL): AuthorityFinding[] {
  const out: AuthorityFinding[] = [];
  const block = (code: string, detail: string) => out.push({ code, severity: "block", detail });
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(raw);
  if (!m) {
    block("authority_differs", `write the URL as ${url.protocol}//host/...: parsers disagree on other forms`);
    return out;
  }
  const authority = m[2]!;
  if (authority.includes("@")) block("userinfo", "an @ in the authority makes readers disagree about the host");
  if (authority.includes("%"))
    block("percent_in_authority", "percent-encoding in the host or port is decoded differently by different parsers");
  if (out.length) return out;

  const { host, port } = splitHostPort(authority);
  if (port === "") block("authority_differs", "an empty port (host:) is read differently by different parsers");
  else if (port !== undefined && port !== url.port && !(url.port === "" && port === DEFAULT_PORT[url.protocol])) {
    block("authority_differs", `port "${port}" is read as "${url.port || "default"}"`);
  }
  const typed = host.toLowerCase();
  // ASCII hosts must come back unchanged (catches 0x7f.1, 2130706433, 127.1, [0:0::1], ...);
  // Unicode hosts must be exactly the Unicode form of what is sent (catches fullwidth dots,
  // ideographic full stops and other UTS #46 mappings a person would not notice).
  const expected = /^[\x21-\x7e]*$/.test(typed) ? url.hostname : domainToUnicode(url.hostname);
  if (typed !== expected && typed.normalize("NFC") !== expected) block("authority_differs", `host "${host}" is read as "${url.hostname}"`);
  if (url.hostname.endsWith("."))
    block("trailing_dot", "a trailing dot makes a different origin that certificates, cookies and allowlists treat inconsistently");

  const labels = url.hostname.replace(/\.$/, "").split(".");
  const embedded = labels.slice(0, -2).findIndex((l) => GENERIC_TLDS.has(l));
  if (embedded > 0) {
    out.push({
      code: "embedded_domain",
      severity: "warn",
      detail: `host reads as ${labels.slice(0, embedded + 1).join(".")} but belongs to ${labels.slice(-2).join(".")}`,
    });
  }
  // "https://evil.com#@good.com", "https://evil.com?@good.com": a person reads the part after the
  // "@" as the host. Every parser agrees here, but the reader is the one being fooled.
  if (/@[^/?#&=]*\.[a-z]/i.test(url.search + url.hash))
    block("deceptive_at_sign", `an "@host" after ? or # reads like a host to a person; the host is ${url.hostname}`);
  return out;
}
