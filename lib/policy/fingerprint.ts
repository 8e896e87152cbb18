// A flow's version fingerprint: what its gate evidence is valid for. Built only from inputs this
// server controls or verified: its own version, the MCP SDK version, the protocol revisions it
// supports, the workflow and the data classification of what it asks, the identity provider that
// issues the access tokens, the downstream OAuth configuration the workflow uses, and the client
// profile (an admin-defined mapping of verified OAuth client ids). Anything a client declares about
// itself (clientInfo name and version, capabilities) is an observation shown on the flow page,
// never an input here: a caller must not be able to reset another tenant's pending promotion by
// announcing a new version. Any change marks the flow "retest required" and resets its approvals.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import type { Need } from "@/lib/elicitation/needs";
import { SERVER_VERSION } from "./flows";

let sdkVersion: string | undefined;
function sdk(): string {
  sdkVersion ??= (createRequire(import.meta.url)("@modelcontextprotocol/sdk/package.json") as { version: string }).version;
  return sdkVersion;
}

export interface FingerprintContext {
  workflow: string;
  profileId: string;
  needs: readonly Need[];
  /** The issuer of the MCP access tokens. */
  issuer: string;
  /** The downstream OAuth issuers the workflow's grants use, as the provider registry holds them. */
  providerIssuers: readonly string[];
}

/** The providers a workflow's grant needs name, once each. */
export function grantProviderIds(needs: readonly Need[]): string[] {
  return [...new Set(needs.flatMap((n) => (n.kind === "grant" && n.providerId ? [n.providerId] : [])))].sort();
}

/**
 * What the fingerprint names for a grant provider the registry does not hold (or holds disabled):
 * its id, marked, so registering it later changes the fingerprint (the flow needs a retest).
 */
export function unregisteredProviderIssuer(providerId: string): string {
  return `unregistered:${providerId}`;
}

export function fingerprintFor(c: FingerprintContext): { fingerprint: string; inputs: Record<string, unknown> } {
  const inputs = {
    serverVersion: SERVER_VERSION,
    sdk: [sdk()],
    protocolRevisions: [...SUPPORTED_PROTOCOL_VERSIONS].sort(),
    workflow: c.workflow,
    profile: c.profileId,
    identityProvider: c.issuer,
    downstream: [...c.providerIssuers].sort(),
    dataClassification: c.needs.map((n) => `${n.key}:${n.kind}`).sort(),
  };
  return { fingerprint: createHash("sha256").update(JSON.stringify(inputs)).digest("hex"), inputs };
}
