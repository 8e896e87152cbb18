// Which flow a workflow call belongs to, from verified input only: the access token's client id
// selects the profile (unmapped ids share "unregistered"), the workflow is the tool being called,
// and the fingerprint is built from what this server controls. clientInfo is not a parameter here
// on purpose: it is recorded on the session and the record as an observation, nothing more.
import type { Db } from "@/db/client";
import type { Flow } from "@/db/schema";
import type { Need } from "@/lib/elicitation/needs";
import { providerIssuers } from "@/lib/connect/registry";
import { fingerprintFor, grantProviderIds } from "./fingerprint";
import { findFlow } from "./flows";
import type { PolicySource } from "./policy-source";
import { updateFingerprint } from "./promotion";

export interface FlowContext {
  db: Db;
  policy: PolicySource;
  /** The verified OAuth client id from the access token ("" when the token named none). */
  clientId: string;
  /** The issuer of the MCP access tokens. */
  issuer: string;
}

export async function resolveFlow(ctx: FlowContext, wf: { name: string; needs: readonly Need[] }): Promise<Flow> {
  const profileId = await ctx.policy.profileFor(ctx.clientId);
  const fp = fingerprintFor({
    workflow: wf.name,
    profileId,
    needs: wf.needs,
    issuer: ctx.issuer,
    // The issuers of the providers this workflow's grants name, as registered (not a fixed one).
    providerIssuers: await providerIssuers(ctx.db, grantProviderIds(wf.needs)),
  });
  const flow = await ctx.policy.flow(wf.name, profileId, fp);
  // Keep the flow's fingerprint current: a change (a new server or SDK version, another issuer)
  // means its gate evidence is stale. Nothing a client says can change it.
  if (fp.fingerprint !== flow.fingerprint && (await updateFingerprint(ctx.db, flow.id, fp.fingerprint, fp.inputs))) {
    return (await findFlow(ctx.db, flow.id)) ?? flow;
  }
  return flow;
}
