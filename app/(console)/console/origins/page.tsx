import { ForbiddenNotice } from "@/components/forbidden-notice";
import { AddOriginForm } from "@/components/origin-forms";
import { OriginsTable } from "@/components/origins-table";
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
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Where URL mode may send people, and the exact redirect URIs a provider may return to. HTTPS only
        {dev ? " (loopback HTTP allowed in development)" : ""}; no wildcards; matched to the letter.
      </p>
      <OriginsTable
        rows={rows.map((o) => {
          const check = checkUrl(o.origin, { dev });
          return {
            id: String(o.id),
            origin: o.origin,
            unicodeHost: check.unicodeHost,
            verdict: check.verdict,
            reasons: check.reasons.map((r) => r.detail),
            redirectUris: o.redirectUris,
            note: o.note,
            removedOn: o.disabledAt ? o.disabledAt.toISOString().slice(0, 10) : null,
          };
        })}
        disable={canManage ? disableOriginFormAction : undefined}
      />
      <section aria-labelledby="add-origin" className="mt-8">
        <h2 id="add-origin" className="text-xl font-semibold">
          Add or update an origin
        </h2>
        {canManage ? <AddOriginForm action={addOriginFormAction} /> : <p className="text-sm">Only admins manage origins.</p>}
      </section>
    </main>
  );
}
