import Link from "next/link";

export interface FilterState {
  state?: string;
  mode?: string;
  flow?: string;
  client?: string;
  inflight?: string;
  sort: string;
}

const LABELS: Record<string, string> = { state: "State", mode: "Mode", flow: "Flow", client: "Client", inflight: "In flight only", sort: "Sort" };

function hrefWithout(f: FilterState, key: string): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v && k !== key && !(k === "sort" && v === "newest")) params.set(k, v);
  const q = params.toString();
  return `/console/records${q ? `?${q}` : ""}`;
}

/** A GET form: filters live in the URL, so every view is a deep link. */
export function RecordsFilters({ f, states, flows, clients }: { f: FilterState; states: readonly string[]; flows: string[]; clients: string[] }) {
  const applied = Object.entries(f).filter(([k, v]) => v && !(k === "sort" && v === "newest"));
  const select = (name: keyof FilterState, options: readonly string[], any = "Any") => (
    <label className="grid gap-1 text-sm">
      <span>{LABELS[name]}</span>
      <select name={name} defaultValue={f[name] ?? ""} className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900">
        <option value="">{any}</option>
        {options.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    </label>
  );
  return (
    <div className="mb-4">
      <form method="get" action="/console/records" className="flex flex-wrap items-end gap-3" aria-label="Filter records">
        {select("state", states)}
        {select("mode", ["form", "url"])}
        {select("flow", flows)}
        {select("client", clients)}
        <label className="flex items-center gap-1 text-sm">
          <input type="checkbox" name="inflight" value="1" defaultChecked={f.inflight === "1"} /> In flight only
        </label>
        <label className="grid gap-1 text-sm">
          <span>Sort</span>
          <select name="sort" defaultValue={f.sort} className="rounded border border-slate-400 bg-white p-1 dark:bg-slate-900">
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
          </select>
        </label>
        <button className="rounded border border-slate-500 px-3 py-1">Apply</button>
      </form>
      {applied.length ? (
        <ul className="mt-2 flex flex-wrap gap-2 text-sm" aria-label="Applied filters">
          {applied.map(([k, v]) => (
            <li key={k}>
              <Link href={hrefWithout(f, k)} className="rounded-full border border-slate-400 px-2 py-0.5 hover:bg-slate-100 dark:hover:bg-slate-800" aria-label={`Remove filter ${LABELS[k]}: ${v}`}>
                {LABELS[k]}: {v} ✕
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
