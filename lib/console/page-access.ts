// The access check of a console page, from the route registry (routes.ts): nobody signed in is
// sent to sign-in with the page as the way back; otherwise the same server-side check as every
// action (requireOperator), a denial audited coalesced like every view (first one written, repeats
// counted). A page about one item (a record) names that item as the target and its own path.
import { redirect } from "next/navigation";
import type { Db } from "@/db/client";
import type { Operator, Target } from "@/lib/auth/authorize";
import type { SessionUser } from "@/lib/auth/next-auth-options";
import { requireOperator } from "@/lib/auth/require-operator";
import { consoleRoute, type ConsoleRouteId } from "./routes";

export type PageAccess = { ok: true; db: Db; operator: Operator; user: SessionUser } | { ok: false; user: SessionUser; reason: string };

export async function consolePageAccess(id: ConsoleRouteId, item?: { target: Target; path: string }): Promise<PageAccess> {
  const route = consoleRoute(id);
  const access = await requireOperator(route.permission, item?.target ?? { type: "console", id }, { view: true });
  if (access.ok) return access;
  if (!access.user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(item?.path ?? route.path)}`);
  return { ok: false, user: access.user, reason: access.error };
}
