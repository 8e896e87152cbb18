// A table's URL state: the page's path, the parameters now applied (filters and sort, never the
// cursor) and their defaults (left out of links, so the plain path stays the canonical first view).
// Shared by the data table's sort and page links and the filter bar's "remove filter" links.
export interface TableUrl {
  path: string;
  params: Readonly<Record<string, string | undefined>>;
  defaults?: Readonly<Record<string, string>>;
}

/** The URL of this view with some parameters changed (undefined removes one). */
export function tableHref(url: TableUrl, change: Readonly<Record<string, string | undefined>>): string {
  const merged: Record<string, string | undefined> = { ...url.params, ...change };
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(merged)) {
    if (v === undefined || v === "") continue;
    if (url.defaults && Object.hasOwn(url.defaults, k) && url.defaults[k] === v) continue;
    params.set(k, v);
  }
  const q = params.toString();
  return q ? `${url.path}?${q}` : url.path;
}
