// What a kill-switch scope names must exist: `workflow:generate_reprot` (a typo) would otherwise be
// accepted, shown as engaged, and stop nothing while the operator believes the incident contained.
// Known workflows are the ones this app serves (by name only: lib/workflows/names.ts), the ones flows have been recorded for (gateway
// tools included), and the namespaced tools of a registered upstream; an upstream must be in the
// registry. A flow's profile may be new (a switch can be set before a client first calls), but its
// workflow must be known. Checked by engageKillSwitch itself, so every way of engaging gets it.
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, upstreams } from "@/db/schema";
import { WORKFLOW_NAMES } from "@/lib/workflows/names";

async function workflowKnown(db: Db, name: string): Promise<boolean> {
  if ((WORKFLOW_NAMES as readonly string[]).includes(name)) return true;
  const [flow] = await db.select({ id: flows.id }).from(flows).where(eq(flows.workflow, name)).limit(1);
  if (flow) return true;
  const sep = name.indexOf("__");
  return sep > 0 && (await upstreamKnown(db, name.slice(0, sep)));
}

async function upstreamKnown(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: upstreams.id }).from(upstreams).where(eq(upstreams.id, id)).limit(1);
  return !!row;
}

/** Why a well-formed scope names nothing, or undefined when it names something that exists. */
export async function scopeNamesNothing(db: Db, scope: string): Promise<string | undefined> {
  if (scope.startsWith("workflow:")) {
    const name = scope.slice("workflow:".length);
    return (await workflowKnown(db, name)) ? undefined : `no workflow is called "${name}": check the name (ctl flows lists them)`;
  }
  if (scope.startsWith("flow:")) {
    const workflow = scope.slice("flow:".length).split(":")[0]!;
    return (await workflowKnown(db, workflow))
      ? undefined
      : `no workflow is called "${workflow}": check the flow id (ctl flows lists them)`;
  }
  if (scope.startsWith("upstream:")) {
    const id = scope.slice("upstream:".length);
    return (await upstreamKnown(db, id)) ? undefined : `no upstream is registered as "${id}" (ctl upstreams list)`;
  }
  return undefined;
}
