// The demo downstream provider ("Demo Git", served by the development identity provider at
// APP_URL/dev/downstream) as a row of the provider registry, like any provider an admin registers:
// its issuer, its client secret sealed with the vault key, its resource. The demo writes it when
// it starts (the seed, `ctl demo`), so nothing outside lib/demo and lib/auth/dev-idp needs
// to know the demo exists: the connect flow and the flow fingerprints read the registry.
import { eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import type { Env } from "@/db/config";
import { providers } from "@/db/schema";
import { appUrl } from "@/lib/auth/oidc-config";
import { requiredSecret } from "@/lib/config/secrets";
import { sealBlob, vaultKey } from "@/lib/vault/vault";
import { REPOSITORIES_PROVIDER_ID } from "@/lib/workflows/list-repositories";

export const DEMO_PROVIDER_ID = REPOSITORIES_PROVIDER_ID;

// Where lib/auth/dev-idp/downstream.ts serves it. Not imported from there: that module loads
// oidc-provider, which every ctl command would then pay for.
export const demoDownstreamIssuer = (base: string) => `${base}/dev/downstream`;

/** The registry row of the demo provider for a deployment at `base` (APP_URL). */
export function demoProviderRow(base: string = appUrl(), env: Env = process.env): typeof providers.$inferInsert {
  return {
    id: DEMO_PROVIDER_ID,
    displayName: "Demo Git",
    issuer: demoDownstreamIssuer(base),
    clientId: "elicitation-gateway",
    // A development secret (DATA_DIR/keys or DEMO_DOWNSTREAM_CLIENT_SECRET), sealed like any other.
    clientSecretSealed: sealBlob(vaultKey(env), `provider:${DEMO_PROVIDER_ID}`, requiredSecret("demoDownstreamClient", env)),
    scopes: ["openid", "repo:read"],
    resource: `${demoDownstreamIssuer(base)}/api`,
  };
}

/**
 * At every demo start: (re)writes the demo provider's sealed secret and resource, so a store
 * seeded before they lived in the registry, or under another development secret, still connects.
 * Only the demo provider's row, and only if it exists (a deployment that removed it stays so).
 */
export async function refreshDemoProvider(db: DbOrTx, base: string = appUrl()): Promise<boolean> {
  const { clientSecretSealed, resource, issuer } = demoProviderRow(base);
  const moved = await db
    .update(providers)
    .set({ clientSecretSealed, resource, issuer })
    .where(eq(providers.id, DEMO_PROVIDER_ID))
    .returning({ id: providers.id });
  return moved.length > 0;
}
