import { RemoveClientProfileForm, SetClientProfileForm } from "@/components/client-profile-forms";
import { ScrollRegion } from "@/components/scroll-region";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { clientCompatibility } from "@/lib/metrics/clients";
import { listClientProfiles } from "@/lib/policy/client-profiles";
import { removeClientProfileFormAction, setClientProfileFormAction } from "./actions";

export const dynamic = "force-dynamic";

const share = (n: number, d: number) => (d ? `${Math.round((100 * n) / d)}%` : "-");

export default async function ClientsPage() {
  const access = await consolePageAccess("clients");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await clientCompatibility(access.db);
  const profiles = await listClientProfiles(access.db);
  const canManage = hasPermission(access.operator.roles, PERMISSIONS.clientProfilesManage);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Clients</h1>
      <section aria-labelledby="profiles-h" className="mt-2">
        <h2 id="profiles-h" className="text-lg font-semibold">Client profiles</h2>
        <p className="text-sm text-slate-700 dark:text-slate-300">
          Flows are keyed on these profiles. A token&apos;s verified OAuth client id (<code>client_id</code>, else <code>azp</code>) selects its profile; any client id not mapped here, such as a dynamically registered one, belongs to <code>unregistered</code>. What a client calls itself never matters.
        </p>
        <ScrollRegion label="Client profiles table" className="mt-2">
        <table className="w-full text-left text-sm" data-testid="client-profiles-table">
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              {["OAuth client id", "Profile", "Display name", "Mapped by", "State", ...(canManage ? ["Action"] : [])].map((h) => (
                <th key={h} scope="col" className="px-2 py-1">{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {profiles.map((p) => (
              <tr key={p.clientId} className="border-b border-slate-100 dark:border-slate-900">
                <td className="px-2 py-1 font-mono text-xs">{p.clientId}</td>
                <td className="px-2 py-1 font-mono text-xs">{p.profileId}</td>
                <td className="px-2 py-1">{p.displayName}</td>
                <td className="px-2 py-1 text-xs">{p.createdBy}</td>
                <td className="px-2 py-1 text-xs">{p.disabledAt ? `unmapped ${p.disabledAt.toISOString().slice(0, 16)}` : "active"}</td>
                {canManage ? <td className="px-2 py-1">{p.disabledAt ? null : <RemoveClientProfileForm clientId={p.clientId} action={removeClientProfileFormAction} />}</td> : null}
              </tr>
            ))}
          </tbody>
        </table>
        </ScrollRegion>
        {canManage ? <div className="mt-2"><SetClientProfileForm action={setClientProfileFormAction} /></div> : null}
      </section>
      <h2 className="mt-6 text-lg font-semibold">Observed client software</h2>
      <p className="text-sm text-slate-700 dark:text-slate-300">What each client version declared in this deployment (at initialize, or with every request in the stateless 2026-07-28 revision, which opens no session), which protocol revisions it spoke, and how its elicitations fared. Trust the declarations, not the product name.</p>
      <ScrollRegion label="Clients table" className="mt-4">
        <table className="w-full text-left text-sm" data-testid="clients-table">
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              {["Client", "Version", "Revisions", "Sessions", "Declared form", "Declared URL", "No elicitation", "Records", "Completed", "Fallbacks", "Last seen"].map((h) => (
                <th key={h} scope="col" className="px-2 py-1">{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={`${r.name}@${r.version}`} className="border-b border-slate-100 dark:border-slate-900">
                <td className="px-2 py-1">{r.name}</td>
                <td className="px-2 py-1 font-mono text-xs">{r.version}</td>
                <td className="px-2 py-1 font-mono text-xs">{r.revisions.join(", ")}</td>
                <td className="px-2 py-1 tabular-nums">{r.sessions}</td>
                <td className="px-2 py-1 tabular-nums">{share(r.formSessions, r.sessions)}</td>
                <td className="px-2 py-1 tabular-nums">{share(r.urlSessions, r.sessions)}</td>
                <td className="px-2 py-1 tabular-nums">{share(r.noElicitationSessions, r.sessions)}</td>
                <td className="px-2 py-1 tabular-nums">{r.records}</td>
                <td className="px-2 py-1 tabular-nums">{share(r.completed, r.records)}</td>
                <td className="px-2 py-1 tabular-nums">{r.fallbacks}</td>
                <td className="px-2 py-1 font-mono text-xs">{r.lastSeen.toISOString().slice(0, 16)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </main>
  );
}
