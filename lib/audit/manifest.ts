// The evidence manifest: what was exported, how to check it, and an Ed25519 signature over the
// JCS serialisation of every field except `signature` itself.
import { z } from "zod";
import { canonicalize } from "./canonical";

export const EXPORT_FORMATS = ["ndjson", "csv"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];
export const DATA_FILE: Record<ExportFormat, string> = { ndjson: "audit.ndjson", csv: "audit.csv" };
export const MANIFEST_FILE = "manifest.json";
export const CSV_COLUMNS = [
  "seq",
  "ts",
  "actor_type",
  "actor_id",
  "action",
  "target_type",
  "target_id",
  "detail",
  "prev_hash",
  "hash",
] as const;

const hex64 = z.string().regex(/^[0-9a-f]{64}$/);

export const manifestSchema = z.object({
  kind: z.literal("elicitation-gateway.audit-export"),
  version: z.literal(1),
  format: z.enum(EXPORT_FORMATS),
  file: z.string(),
  fileSha256: hex64,
  filter: z.object({ from: z.string().nullable(), to: z.string().nullable() }),
  count: z.number().int().nonnegative(),
  firstSeq: z.number().int().positive().nullable(),
  lastSeq: z.number().int().positive().nullable(),
  firstPrevHash: hex64.nullable(),
  firstHash: hex64.nullable(),
  lastHash: hex64.nullable(),
  chainHead: z.object({ seq: z.number().int().nonnegative(), hash: hex64.nullable() }),
  exportedAt: z.string(),
  exportedBy: z.string(),
  hashAlgorithm: z.literal("sha256"),
  canonicalization: z.literal("RFC8785-JCS"),
  signer: z.object({ algorithm: z.literal("Ed25519"), keyFingerprint: z.string(), publicKey: z.string() }),
  signature: z.string(),
});

export type Manifest = z.infer<typeof manifestSchema>;

export function signedPayload(manifest: Omit<Manifest, "signature"> | Manifest): string {
  const { signature: _omit, ...rest } = manifest as Manifest;
  void _omit;
  return canonicalize(rest);
}
