import type { ReactNode } from "react";
import { getDb } from "@/db";
import { ConsoleShell } from "@/components/console-shell";
import { endSessionUrl } from "@/lib/auth/next-auth-options";
import { loadOperator } from "@/lib/auth/authorize";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { currentUser } from "@/lib/auth/session";
import { consoleNavigation } from "@/lib/console/routes";
import { activeKillSwitches } from "@/lib/policy/kill-switch";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  // Each page redirects to sign-in itself (lib/console/page-access.ts), with its own path as the way back.
  if (!user) return <>{children}</>;
  // Only someone who may read the console's health sees which switches are engaged and why: the
  // reason is an operator's free text, not for an end user who merely signed in.
  const db = await getDb();
  const [operator, signOutTo] = await Promise.all([loadOperator(db, user.sub), endSessionUrl()]);
  const switches = operator && hasPermission(operator.roles, PERMISSIONS.healthRead) ? await activeKillSwitches(db) : [];
  return (
    <ConsoleShell
      user={user}
      nav={consoleNavigation()}
      switches={switches.map((s) => ({ scope: s.scope, reason: s.reason }))}
      endSessionUrl={signOutTo}
    >
      {children}
    </ConsoleShell>
  );
}
