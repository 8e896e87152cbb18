// Form posts that change something must come from this app: the Origin header names APP_URL, or,
// for browsers that withhold Origin, Sec-Fetch-Site says same-origin. (Cookies are SameSite=Lax too.)
export function isSameOriginPost(req: Request, appUrl: string): boolean {
  const origin = req.headers.get("origin");
  if (origin === appUrl) return true;
  return (origin === null || origin === "null") && req.headers.get("sec-fetch-site") === "same-origin";
}
