// A flow's version fingerprint: what its gate evidence is valid for. MCP revision, SDK version,
// the client name and every version of it seen, the declared capability manifest, the identity
// provider and the downstream OAuth configuration the workflow uses, and the data classification
// of what it asks. Any change marks the flow "retest required" and resets its promotion approvals.
import { createHash } from "node:crypto";
import { createRequire } from "node:module";
import type { Flow } from "@/db/schema";
import type { Need } from "@/lib/elicitation/needs";

let sdkVersion: string | undefined;
function sdk(): string {
  sdkVersion ??= (createRequire(import.meta.url)("@modelcontextprotocol/sdk/package.json") as { version: string }).version;
  return sdkVersion;
}

export interface FingerprintContext {
  protocolVersion: string;
  clientName: string;
  clientVersion: string;
  modes: { form: boolean; url: boolean };
  issuer: string;
  providerIssuers: string[];
  needs: Need[];
}

export function fingerprintFor(flow: Pick<Flow, "fingerprintInputs">, c: FingerprintContext): { fingerprint: string; inputs: Record<string, unknown> } {
  const seen = (flow.fingerprintInputs as { clientVersions?: unknown }).clientVersions;
  const versions = new Set(Array.isArray(seen) ? seen.filter((v): v is string => typeof v === "string") : []);
  versions.add(c.clientVersion);
  const inputs = {
    mcpRevision: c.protocolVersion,
    sdk: sdk(),
    clientName: c.clientName,
    clientVersions: [...versions].sort(),
    capabilities: c.modes,
    identityProvider: c.issuer,
    downstream: [...c.providerIssuers].sort(),
    dataClassification: c.needs.map((n) => `${n.key}:${n.kind}`).sort(),
  };
  return { fingerprint: createHash("sha256").update(JSON.stringify(inputs)).digest("hex"), inputs };
}
