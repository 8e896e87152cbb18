import { DomainHighlight } from "@/components/domain-highlight";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { AddOriginForm, DisableOriginForm } from "@/components/origin-forms";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { isProduction } from "@/lib/config/app-env";
import { listOrigins } from "@/lib/policy/origins";
import { checkUrl } from "@/lib/policy/url-check";
import { addOriginFormAction, disableOriginFormAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function OriginsPage() {
  const access = await consolePageAccess("origins");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await listOrigins(access.db);
  const dev = !isProduction();
  const canManage = hasPermission(access.operator.roles, PERMISSIONS.originsManage);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Origins</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">Where URL mode may send people, and the exact redirect URIs a provider may return to. HTTPS only{dev ? " (loopback HTTP allowed in development)" : ""}; no wildcards; matched to the letter.</p>
      <ul className="mt-4 grid gap-3" data-testid="origins">
        {rows.map((o) => {
          const check = checkUrl(o.origin, { dev });
          return (
            <li key={o.id} className={`rounded border p-3 ${o.disabledAt ? "border-slate-200 opacity-60 dark:border-slate-800" : "border-slate-300 dark:border-slate-700"}`}>
              <div className="flex flex-wrap items-center gap-3">
                <DomainHighlight url={o.origin} unicodeHost={check.unicodeHost} />
                <span className={`rounded px-1 text-xs ${check.verdict === "allow" ? "bg-green-100 text-green-900" : check.verdict === "warn" ? "bg-amber-100 text-amber-950" : "bg-red-100 text-red-900"}`}>{check.verdict}</span>
                {o.disabledAt ? <span className="text-xs">removed {o.disabledAt.toISOString().slice(0, 10)}</span> : canManage ? <DisableOriginForm origin={o.origin} action={disableOriginFormAction} /> : null}
              </div>
              {check.reasons.length ? <p className="mt-1 text-xs text-amber-900 dark:text-amber-200">{check.reasons.map((r) => r.detail).join("; ")}</p> : null}
              <ul className="mt-1 font-mono text-xs">
                {o.redirectUris.map((u) => (
                  <li key={u}>{u}</li>
                ))}
              </ul>
              {o.note ? <p className="mt-1 text-xs">{o.note}</p> : null}
            </li>
          );
        })}
      </ul>
      <section aria-labelledby="add-origin" className="mt-8">
        <h2 id="add-origin" className="text-xl font-semibold">Add or update an origin</h2>
        {canManage ? <AddOriginForm action={addOriginFormAction} /> : <p className="text-sm">Only admins manage origins.</p>}
      </section>
    </main>
  );
}
