// One gate run for one flow against one target: contract, privacy, phishing, accessibility and
// recovery driven in turn (for our own workflows, or for an upstream tool's flow in gateway mode),
// the evidence document built, signed and stored, and each gate recorded against the flow's
// fingerprint with the evidence hash, all in one transaction with its audit entries. The start is
// audited before anything is driven (finding an upstream's tool is already a call to the target).
// The runner's own store is the one that keeps the evidence (the target's, normally).
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { flows, gateRuns, type Flow, type Upstream } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import type { Signer } from "@/lib/audit/signing";
import { appendAudit } from "@/lib/audit/writer";
import { profileForClient } from "@/lib/policy/client-profiles";
import { activeProfileMap } from "@/lib/policy/client-profiles";
import { servedWorkflows } from "@/lib/workflows/registry";
import { accessibilityGate } from "./accessibility-gate";
import type { GateApprover } from "./approver";
import { launch } from "./browser";
import { clientVariantsFor, type ClientProfileUsed } from "./client-variants";
import type { GateContext } from "./context";
import { contractGate } from "./contract-gate";
import { buildEvidence, signEvidence, storeEvidence, type EvidenceDocument } from "./evidence";
import { phishingGate } from "./phishing-gate";
import { privacyGate } from "./privacy-gate";
import { recoveryGate } from "./recovery-gate";
import { admitsAnyone, tokenSource, type GateTarget, type TokenSource } from "./target";
import type { UpstreamGateContext } from "./upstream-context";
import { upstreamContractGate } from "./upstream-contract-gate";
import { upstreamPhishingGate } from "./upstream-phishing-gate";
import { upstreamPrivacyGate } from "./upstream-privacy-gate";
import { findUpstreamTool, upstreamOfFlow } from "./upstream-tool";
import { upstreamAccessibilityGate, upstreamRecoveryGate } from "./upstream-url-gates";
import { gatePassed, type GateResult } from "./types";

export class GateRunError extends Error {
  override name = "GateRunError";
}

export interface GateRunInput {
  flowId: string;
  actor: string;
  target: GateTarget;
  signer: Signer;
  /** A token for a test user at a deployment with a real identity provider. */
  token?: string;
  /** The second operator who decides approval steps (lib/gates/approver.ts). */
  approver?: GateApprover;
}

/** The OAuth client id whose tokens select the flow's profile (the first active mapping). */
async function clientIdForProfile(db: Db, profileId: string): Promise<string> {
  for (const [clientId, profile] of await activeProfileMap(db)) if (profile === profileId) return clientId;
  throw new GateRunError(`no active client id maps to profile ${profileId}: a gate cannot call the endpoint as that client`);
}

async function workflowGates(ctx: GateContext, actor: string): Promise<GateResult[]> {
  const browser = await launch(ctx.target.chromiumPath);
  const gates: GateResult[] = [];
  try {
    gates.push(await contractGate(ctx));
    gates.push(await privacyGate(ctx, actor));
    gates.push(await phishingGate(ctx));
    gates.push(await accessibilityGate(ctx, actor, browser));
    gates.push(await recoveryGate(ctx, actor, browser));
  } finally {
    if (typeof browser !== "string") await browser.close();
  }
  return gates;
}

/**
 * An upstream tool's flow: the tool is found as the gateway lists it to a test subject (before
 * anything is called); the five gates then judge what can be judged without knowing the tool.
 * Recovery and accessibility run last: they judge the links the other gates' calls saw.
 */
async function upstreamToolGates(
  flow: Flow,
  upstream: Upstream,
  profile: ClientProfileUsed,
  target: GateTarget,
  tokens: TokenSource,
  runId: string,
  actor: string,
): Promise<GateResult[]> {
  const variant = profile.variants[0];
  if (!variant) throw new GateRunError(`flow ${flow.id} has no client variant to call the gateway with`);
  const tool = await findUpstreamTool(upstream, flow, target, tokens, variant).catch((err: unknown) => {
    // The console shows a GateRunError's message: say plainly that the listing itself failed.
    throw new GateRunError(`could not list the gateway's tools as the flow's client: ${(err as Error).message ?? String(err)}`);
  });
  if ("reason" in tool) throw new GateRunError(tool.reason);
  const ctx: UpstreamGateContext = { flow, tool, profile, target, tokens, runId, seen: [] };
  const contract = await upstreamContractGate(ctx);
  const privacy = await upstreamPrivacyGate(ctx, actor);
  const phishing = await upstreamPhishingGate(ctx);
  return [contract, privacy, phishing, await upstreamAccessibilityGate(ctx), await upstreamRecoveryGate(ctx)];
}

export async function runGates(db: Db, input: GateRunInput): Promise<{ evidence: EvidenceDocument; hash: string }> {
  const [flow] = await db.select().from(flows).where(eq(flows.id, input.flowId)).limit(1);
  if (!flow) throw new GateRunError(`flow ${input.flowId} does not exist`);
  const workflow = servedWorkflows().find((w) => w.name === flow.workflow);
  // Not one of ours: an upstream tool's flow (gateway mode) when its name points into a registered
  // upstream; anything else is refused as before.
  const upstream = workflow ? undefined : await upstreamOfFlow(db, flow);
  if (!workflow && !upstream) throw new GateRunError(`workflow ${flow.workflow} is not served by this build`);
  const clientId = await clientIdForProfile(db, flow.profileId);
  if ((await profileForClient(db, clientId)) !== flow.profileId)
    throw new GateRunError(`client id ${clientId} does not select profile ${flow.profileId}`);
  if (!admitsAnyone(flow))
    throw new GateRunError(
      `flow ${flow.id} is ${flow.stage.replace("_", " ")} and admits no one, so nothing can be driven: give it a canary share first (ctl flows canary)`,
    );
  if (input.approver && input.approver.subject === input.actor)
    throw new GateRunError("the approver must be another operator than the releaser running the gates (two people)");
  const startedAt = new Date();
  const runId = randomBytes(8).toString("hex");
  await db.transaction((tx) =>
    appendAudit(tx, {
      actorType: "operator",
      actorId: input.actor,
      action: AUDIT_ACTIONS.gateRunStarted,
      targetType: "flow",
      targetId: flow.id,
      detail: { run: runId, target: input.target.baseUrl, fingerprint: flow.fingerprint },
    }),
  );
  const profile = await clientVariantsFor(db, flow);
  const tokens = tokenSource(input.target, flow, clientId, input.token);
  const gates = workflow
    ? await workflowGates(
        { flow, workflow, profile, target: input.target, tokens, runId, ...(input.approver ? { approver: input.approver } : {}) },
        input.actor,
      )
    : await upstreamToolGates(flow, upstream!, profile, input.target, tokens, runId, input.actor);
  const evidence = buildEvidence({
    runId,
    flow,
    target: input.target.baseUrl,
    tokens: tokens.kind,
    profile,
    ranBy: input.actor,
    startedAt,
    gates,
  });
  const signed = signEvidence(evidence, input.signer);
  await db.transaction(async (tx) => {
    await storeEvidence(tx, evidence, signed);
    for (const g of gates) {
      await tx.insert(gateRuns).values({
        flowId: flow.id,
        gate: g.gate,
        passed: gatePassed(g),
        fingerprint: flow.fingerprint,
        resultHash: signed.hash,
        ranBy: input.actor,
      });
      await appendAudit(tx, {
        actorType: "operator",
        actorId: input.actor,
        action: AUDIT_ACTIONS.gateRecorded,
        targetType: "flow",
        targetId: flow.id,
        detail: {
          gate: g.gate,
          passed: gatePassed(g),
          outcome: g.outcome,
          fingerprint: flow.fingerprint,
          result_sha256: signed.hash,
          run: runId,
        },
      });
    }
  });
  return { evidence, hash: signed.hash };
}
