// Walks a development provider's sign-in over plain HTTP (a cookie jar and manual redirects), the
// way a browser would, and stops at the redirect back to the client: returns that callback URL.
export async function loginAtProvider(authorizationUrl: string, login: string, stopAt: string): Promise<URL> {
  const jar = new Map<string, string>();
  const cookieHeader = () => [...jar.entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  const remember = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair!.indexOf("=");
      jar.set(pair!.slice(0, i), pair!.slice(i + 1));
    }
  };
  let url = authorizationUrl;
  let init: RequestInit = {};
  for (let hops = 0; hops < 15; hops++) {
    if (url.startsWith(stopAt)) return new URL(url);
    const res = await fetch(url, { ...init, redirect: "manual", headers: { ...(init.headers ?? {}), cookie: cookieHeader() } });
    remember(res);
    init = {};
    const location = res.headers.get("location");
    if (location) {
      url = new URL(location, url).toString();
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no login form and no redirect at ${url} (HTTP ${res.status})`);
    url = new URL(action, url).toString();
    init = {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login, password: "demo" }).toString(),
    };
  }
  throw new Error("too many redirects");
}
