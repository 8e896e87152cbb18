import type { ReactNode } from "react";
import { getDb } from "@/db";
import { ConsoleShell } from "@/components/console-shell";
import { endSessionUrl } from "@/lib/auth/next-auth-options";
import { currentUser } from "@/lib/auth/session";
import { activeKillSwitches } from "@/lib/policy/kill-switch";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  // Each page redirects to sign-in itself (pageAccess), with its own path as the way back.
  if (!user) return <>{children}</>;
  const [switches, signOutTo] = await Promise.all([activeKillSwitches(await getDb()), endSessionUrl()]);
  return (
    <ConsoleShell user={user} switches={switches.map((s) => ({ scope: s.scope, reason: s.reason }))} endSessionUrl={signOutTo}>
      {children}
    </ConsoleShell>
  );
}
