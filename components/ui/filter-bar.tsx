import Link from "next/link";
import { buttonClass } from "./button";
import { CheckField, Field } from "./field";
import { Input } from "./input";
import { Select, type SelectOption } from "./select";
import { tableHref, type TableUrl } from "./table-url";

// The filters above a data table: a GET form, so the filters live in the URL and every view is a
// deep link, and the applied ones listed as links that remove them. The server parses the URL with
// the page's zod schema (lib/http/search-params.ts); this only renders the current state.
export type FilterDef =
  | { kind: "select"; name: string; label: string; options: readonly (string | SelectOption)[]; any?: string }
  | { kind: "text"; name: string; label: string; maxLength?: number }
  | { kind: "checkbox"; name: string; label: string; value: string };

export function FilterBar({
  url,
  filters,
  label,
  clearLabel,
}: {
  url: TableUrl;
  filters: readonly FilterDef[];
  label: string;
  clearLabel?: string;
}) {
  const current = (name: string) => (Object.hasOwn(url.params, name) ? url.params[name] : undefined);
  const isDefault = (name: string, v: string) => !!url.defaults && Object.hasOwn(url.defaults, name) && url.defaults[name] === v;
  const applied = filters.flatMap((f) => {
    const v = current(f.name);
    return v && !isDefault(f.name, v) ? [{ f, v }] : [];
  });
  return (
    <div className="mb-4">
      <form method="get" action={url.path} className="flex flex-wrap items-end gap-3" aria-label={label}>
        {filters.map((f) =>
          f.kind === "checkbox" ? (
            <CheckField key={f.name} label={f.label}>
              <input type="checkbox" name={f.name} value={f.value} defaultChecked={current(f.name) === f.value} />
            </CheckField>
          ) : (
            <Field key={f.name} label={f.label}>
              {f.kind === "select" ? (
                <Select name={f.name} defaultValue={current(f.name) ?? url.defaults?.[f.name] ?? ""} options={f.options} any={f.any} />
              ) : (
                <Input name={f.name} defaultValue={current(f.name) ?? ""} maxLength={f.maxLength ?? 200} />
              )}
            </Field>
          ),
        )}
        <button className={buttonClass("outline")}>Apply</button>
        {applied.length && clearLabel ? (
          <Link className="underline" href={url.path}>
            {clearLabel}
          </Link>
        ) : null}
      </form>
      {applied.length ? (
        <ul className="mt-2 flex flex-wrap gap-2 text-sm" aria-label="Applied filters">
          {applied.map(({ f, v }) => (
            <li key={f.name}>
              <Link
                href={tableHref(url, { [f.name]: undefined })}
                className="rounded-full border border-slate-400 px-2 py-0.5 hover:bg-slate-100 dark:hover:bg-slate-800"
                aria-label={`Remove filter ${f.label}: ${v}`}
              >
                {f.label}: {v} ✕
              </Link>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
