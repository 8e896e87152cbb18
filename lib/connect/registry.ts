// Downstream providers and allowlisted origins. A URL elicitation may only send a user to this
// app's own connect page on an allowlisted origin, and a provider may only redirect back to a
// redirect URI listed for that origin, matched to the letter (no prefixes, no wildcards).
import { and, eq, inArray, isNull } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { origins, providers } from "@/db/schema";
import { unregisteredProviderIssuer } from "@/lib/policy/fingerprint";
import { openBlob, vaultKey } from "@/lib/vault/vault";

export interface ProviderInfo {
  id: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string[];
  /** The resource (RFC 8707) the grant is for, when the provider uses resource indicators. */
  resource?: string;
}

export class RegistryError extends Error {
  override name = "RegistryError";
}

export async function providerInfo(db: DbOrTx, id: string): Promise<ProviderInfo> {
  const [row] = await db
    .select()
    .from(providers)
    .where(and(eq(providers.id, id), isNull(providers.disabledAt)))
    .limit(1);
  if (!row) throw new RegistryError(`provider ${id} is not registered or is disabled`);
  // Every provider, the demo's included (lib/demo/provider.ts), keeps its secret sealed in its row.
  if (!row.clientSecretSealed) throw new RegistryError(`provider ${id} has no client secret`);
  const clientSecret = openBlob(vaultKey(), `provider:${row.id}`, row.clientSecretSealed);
  return {
    id: row.id,
    displayName: row.displayName,
    issuer: row.issuer,
    clientId: row.clientId,
    clientSecret,
    scopes: row.scopes,
    resource: row.resource ?? undefined,
  };
}

/**
 * The pinned issuers of these providers, in the order given, for flow fingerprints: a provider that
 * is not registered, or is disabled, is named as such (lib/policy/fingerprint.ts).
 */
export async function providerIssuers(db: DbOrTx, ids: readonly string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: providers.id, issuer: providers.issuer })
    .from(providers)
    .where(and(inArray(providers.id, [...ids]), isNull(providers.disabledAt)));
  const issuerOf = new Map(rows.map((r) => [r.id, r.issuer]));
  return ids.map((id) => issuerOf.get(id) ?? unregisteredProviderIssuer(id));
}

/** The origin must be allowlisted and list this exact redirect URI. */
export async function assertRedirectAllowed(db: DbOrTx, redirectUri: string): Promise<{ origin: string }> {
  const origin = new URL(redirectUri).origin;
  const [row] = await db
    .select()
    .from(origins)
    .where(and(eq(origins.origin, origin), isNull(origins.disabledAt)))
    .limit(1);
  if (!row) throw new RegistryError(`origin ${origin} is not on the allowlist`);
  if (!row.redirectUris.includes(redirectUri)) throw new RegistryError(`redirect URI ${redirectUri} is not registered for ${origin}`);
  return { origin };
}
