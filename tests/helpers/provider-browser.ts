// A minimal browser for the development provider's pages over plain HTTP: a cookie jar, manual
// redirects (stopping at a given prefix, such as a client's redirect URI), and the forms on a page
// read as data, so tests can submit exactly what a user's click would (hidden fields included).
import { createHash, randomBytes } from "node:crypto";

export interface PageForm {
  id: string | undefined;
  action: string;
  fields: Record<string, string>;
  /** name=value of each submit button in or attached (form="id") to the form. */
  buttons: Array<{ name: string; value: string }>;
}

export interface Landing {
  url: string;
  status: number;
  html: string;
  headers: Headers;
}

const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
const unescape = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&");

export function formsOf(html: string, base: string): PageForm[] {
  const out: PageForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/g)) {
    const tag = m[1]!;
    const id = attr(tag, "id");
    const fields: Record<string, string> = {};
    for (const input of m[2]!.matchAll(/<input\b([^>]*)>/g)) {
      const name = attr(input[1]!, "name");
      if (name) fields[name] = unescape(attr(input[1]!, "value") ?? "");
    }
    const buttons: PageForm["buttons"] = [];
    for (const b of html.matchAll(/<button\b([^>]*)>/g)) {
      const inside = m[2]!.includes(b[0]);
      const owner = attr(b[1]!, "form");
      if ((inside || (id && owner === id)) && attr(b[1]!, "name"))
        buttons.push({ name: attr(b[1]!, "name")!, value: attr(b[1]!, "value") ?? "" });
    }
    out.push({ id, action: new URL(unescape(attr(tag, "action") ?? ""), base).toString(), fields, buttons });
  }
  return out;
}

export class ProviderBrowser {
  readonly jar = new Map<string, string>();

  private remember(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      const value = pair!.slice(i + 1);
      if (value === "" || /expires=Thu, 01 Jan 1970/i.test(c)) this.jar.delete(pair!.slice(0, i));
      else this.jar.set(pair!.slice(0, i), value);
    }
  }

  cookieHeader(): string {
    return [...this.jar.entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const res = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string> | undefined), cookie: this.cookieHeader() },
    });
    this.remember(res);
    return res;
  }

  /** Follows redirects; stops at the first URL starting with `stopAt` (not fetched) or a page. */
  async go(url: string, init: RequestInit = {}, stopAt?: string): Promise<Landing> {
    let next = url;
    let options = init;
    for (let hops = 0; hops < 20; hops++) {
      if (stopAt && next.startsWith(stopAt)) return { url: next, status: 0, html: "", headers: new Headers() };
      const res = await this.request(next, options);
      const location = res.headers.get("location");
      if (location && res.status >= 300 && res.status < 400) {
        next = new URL(location, next).toString();
        options = {};
        continue;
      }
      return { url: next, status: res.status, html: await res.text(), headers: res.headers };
    }
    throw new Error("too many redirects");
  }

  /** Submits a form as a click on the given button (or none) would, with extra fields. */
  submit(form: PageForm, extra: Record<string, string> = {}, stopAt?: string, headers: Record<string, string> = {}): Promise<Landing> {
    return this.go(
      form.action,
      {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams({ ...form.fields, ...extra }).toString(),
      },
      stopAt,
    );
  }
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

export function authorizationUrl(issuer: string, params: Record<string, string>): string {
  const u = new URL(`${issuer}/auth`);
  const { challenge } = pkce();
  for (const [k, v] of Object.entries({
    response_type: "code",
    scope: "openid",
    state: randomBytes(8).toString("hex"),
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...params,
  }))
    u.searchParams.set(k, v);
  return u.toString();
}

/** Signs in at the login page the landing shows (login form with a password field). */
export async function signIn(
  browser: ProviderBrowser,
  landing: Landing,
  login: string,
  stopAt?: string,
  password = "demo",
): Promise<Landing> {
  const form = formsOf(landing.html, landing.url).find((f) => "password" in f.fields);
  if (!form) throw new Error(`no login form at ${landing.url} (HTTP ${landing.status})`);
  return browser.submit(form, { login, password }, stopAt);
}
