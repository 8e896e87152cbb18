import { ForbiddenNotice } from "@/components/forbidden-notice";
import { OperatorsTable } from "@/components/operators-table";
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
        Operators and their roles come from the identity provider and are re-read on every request. Ending an operator&apos;s sessions signs
        out every browser they use, on the server, at once.
      </p>
      <OperatorsTable
        self={access.operator.subject}
        endSessions={endSessionsFormAction}
        rows={rows.map((o) => ({
          subject: o.subject,
          displayName: o.displayName,
          disabled: o.disabledAt !== null,
          roles: o.roles,
          lastSeenAt: o.lastSeenAt,
          liveSessions: live.get(o.subject) ?? 0,
        }))}
      />
    </main>
  );
}
