import { ScrollRegion } from "@/components/scroll-region";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { pageAccess } from "@/lib/auth/page-guard";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { clientCompatibility } from "@/lib/metrics/clients";

export const dynamic = "force-dynamic";

const share = (n: number, d: number) => (d ? `${Math.round((100 * n) / d)}%` : "-");

export default async function ClientsPage() {
  const access = await pageAccess(PERMISSIONS.healthRead, { type: "console", id: "clients" }, "/console/clients");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const rows = await clientCompatibility(access.db);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Clients</h1>
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
