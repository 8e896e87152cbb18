import type { ReactNode } from "react";
import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { ConsoleShell } from "@/components/console-shell";
import { endSessionUrl } from "@/lib/auth/next-auth-options";
import { currentUser } from "@/lib/auth/session";
import { activeKillSwitches } from "@/lib/policy/kill-switch";

export const dynamic = "force-dynamic";

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  const user = await currentUser();
  if (!user) redirect("/sign-in?callbackUrl=/console");
  const switches = await activeKillSwitches(await getDb());
  return (
    <ConsoleShell user={user} switches={switches.map((s) => ({ scope: s.scope, reason: s.reason }))} endSessionUrl={endSessionUrl()}>
      {children}
    </ConsoleShell>
  );
}
