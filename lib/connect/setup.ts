// The manual path outside any MCP workflow: a signed-in user connects a provider from the browser
// (/setup/{provider}). It creates the same kind of URL-mode record as the engine, bound to the
// browser user's subject and tenant, and then runs the same connect flow, so every check applies.
import type { Db } from "@/db/client";
import { insertRecord, newRecordId } from "@/lib/elicitation/records";
import { activeKillSwitches } from "@/lib/policy/kill-switch";
import { checkUrl } from "@/lib/policy/url-check";
import { connectConfig } from "./config";
import { activeConnection } from "./connections";
import { assertRedirectAllowed, providerInfo, RegistryError } from "./registry";
import type { BrowserUser } from "./flow";

export type SetupStart = { ok: true; connectPath: string } | { ok: true; alreadyConnected: true } | { ok: false; reason: string };

export async function startSetup(db: Db, providerId: string, user: BrowserUser, clientName = "browser setup"): Promise<SetupStart> {
  if (!user.tenant) return { ok: false, reason: "your account has no tenant" };
  let provider;
  try {
    provider = await providerInfo(db, providerId);
  } catch (err) {
    if (err instanceof RegistryError) return { ok: false, reason: err.message };
    throw err;
  }
  if (await activeConnection(db, { subject: user.sub, tenantId: user.tenant, providerId })) return { ok: true, alreadyConnected: true };
  const stop = (await activeKillSwitches(db)).find((k) => k.scope === "global" || k.scope === "mode:url");
  if (stop) return { ok: false, reason: `URL connections are stopped by an operator: ${stop.reason}` };
  const cfg = connectConfig();
  try {
    await assertRedirectAllowed(db, cfg.redirectUri);
  } catch (err) {
    if (err instanceof RegistryError) return { ok: false, reason: err.message };
    throw err;
  }
  const id = newRecordId();
  if (checkUrl(cfg.connectUrl(id), { dev: cfg.dev }).verdict !== "allow")
    return { ok: false, reason: "this deployment's connect URL does not pass the URL check" };
  await insertRecord(
    db,
    {
      id,
      mode: "url",
      needKind: "grant",
      subject: user.sub,
      tenantId: user.tenant,
      sessionId: null,
      clientName,
      clientVersion: "-",
      protocolVersion: "-",
      requestMethod: "setup",
      requestId: "-",
      toolName: `setup:${providerId}`,
      flowId: null,
      purpose: `Connect ${provider.displayName} from the setup page`,
      routeDecision: "url",
      routeReason: "manual setup outside a workflow",
      providerId,
      targetOrigin: new URL(cfg.redirectUri).origin,
      redirectUri: cfg.redirectUri,
      expiresAt: new Date(Date.now() + cfg.ttlMs),
    },
    "sent",
  );
  return { ok: true, connectPath: `/connect/${id}` };
}
