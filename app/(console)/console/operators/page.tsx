import { ScrollRegion } from "@/components/scroll-region";
import { EndSessionsForm } from "@/components/end-sessions-form";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { listOperators } from "@/lib/auth/authorize";
import { liveSessionCounts } from "@/lib/auth/console-sessions";
import { consolePageAccess } from "@/lib/console/page-access";
import { endSessionsFormAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function OperatorsPage() {
  const access = await consolePageAccess("operators");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const [rows, live] = await Promise.all([listOperators(access.db), liveSessionCounts(access.db)]);
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Operators</h1>
      <p className="text-sm text-slate-700 dark:text-slate-300">
        Operators and their roles come from the identity provider and are re-read on every request. Ending an operator&apos;s sessions signs out every browser they use, on the server, at once.
      </p>
      <ScrollRegion label="Operators table" className="mt-4">
        <table className="w-full text-left text-sm" data-testid="operators-table">
          <thead>
            <tr className="border-b border-slate-300 dark:border-slate-700">
              {["Subject", "Name", "Roles", "Last sign-in", "Live sessions", "End sessions"].map((h) => (
                <th key={h} scope="col" className="px-2 py-1">{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.map((o) => (
              <tr key={o.subject} className="border-b border-slate-100 align-top dark:border-slate-900" data-operator={o.subject}>
                <td className="px-2 py-1 font-mono text-xs">{o.subject}</td>
                <td className="px-2 py-1">{o.displayName}{o.disabledAt ? " (disabled)" : ""}</td>
                <td className="px-2 py-1">{o.roles.join(", ")}</td>
                <td className="px-2 py-1 font-mono text-xs">{o.lastSeenAt?.toISOString().slice(0, 16) ?? "-"}</td>
                <td className="px-2 py-1 tabular-nums" data-testid="live-sessions">{live.get(o.subject) ?? 0}</td>
                <td className="px-2 py-1">{o.subject === access.operator.subject ? <span className="text-xs">(you: use Sign out)</span> : <EndSessionsForm subject={o.subject} action={endSessionsFormAction} />}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </main>
  );
}
