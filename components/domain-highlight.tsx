/** A URL with its host set apart, so a person sees where they are going; both forms of an IDN host. */
export function DomainHighlight({ url, unicodeHost }: { url: string; unicodeHost: string | null }) {
  const u = new URL(url);
  const rest = `${u.port ? `:${u.port}` : ""}${u.pathname}`;
  return (
    <span className="font-mono text-sm break-all" data-testid="provider-url">
      <span className="text-slate-600 dark:text-slate-400">{`${u.protocol}//`}</span>
      <strong className="rounded bg-yellow-200 px-1 text-slate-950 dark:bg-yellow-300" data-testid="provider-domain">
        {u.hostname}
      </strong>
      <span className="text-slate-600 dark:text-slate-400">{rest}</span>
      {unicodeHost && unicodeHost !== u.hostname ? (
        <span className="ml-2 text-red-800 dark:text-red-300">(shown as {unicodeHost})</span>
      ) : null}
    </span>
  );
}
