// Sealed multi-round-trip state (2026-07-28). `requestState` travels through the client and the
// model and comes back as attacker-controlled input, so it is AES-256-GCM sealed by this server:
// nothing in it is readable outside, and any change fails authentication. It binds the ask to the
// subject, tenant, verified OAuth client id, tool, a hash of the arguments, the record and the need,
// and expires with the
// form timeout (form) or the connect link (URL). Single use is the record's job: a state is only
// accepted while its record can still take the answer (lib/mcp/modern/resume-check.ts).
// A workflow with two needs carries the answers settled in earlier rounds of the same call inside
// the state (lib/mcp/wire-2026-07-28.ts): the client holds them only sealed; they are never stored.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { canonicalize } from "@/lib/audit/canonical";
import type { CarriedAnswer } from "@/lib/elicitation/wire";

const VERSION = "v1";
const AAD = Buffer.from("elicitation-gateway/mcp-request-state/v1");
/**
 * Far above any real state (a few hundred bytes, a few KB with carried answers): longer input is
 * refused before decoding, and a state that would be longer is never issued.
 */
export const MAX_REQUEST_STATE_LENGTH = 16_384;

export interface RequestStateClaims {
  subject: string;
  tenant: string;
  /** The verified OAuth client id (azp/client_id) of the token the state was issued to. */
  clientId: string;
  tool: string;
  /** sha256 of the canonical (RFC 8785) arguments of the call that asked. */
  argsHash: string;
  recordId: string;
  needKey: string;
  kind: "form" | "url";
  /** Expiry, ms since the epoch. */
  expiresAt: number;
  /** Form answers settled in earlier rounds of this call. */
  carried?: CarriedAnswer[];
}

export class RequestStateTooLargeError extends Error {
  override name = "RequestStateTooLargeError";
  constructor() {
    super("the answers gathered so far are too large to carry into another round");
  }
}

export type StateRefusal =
  "malformed" | "altered" | "expired" | "other_user" | "other_tenant" | "other_client" | "other_tool" | "other_arguments";

/** On `expired` the claims are given too: the state was this caller's, so its record can be closed. */
export type OpenedState = { ok: true; claims: RequestStateClaims } | { ok: false; reason: StateRefusal; claims?: RequestStateClaims };

export function argumentsHash(args: unknown): string {
  return createHash("sha256")
    .update(canonicalize(args ?? {}))
    .digest("hex");
}

export function sealRequestState(key: Buffer, claims: RequestStateClaims): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(AAD);
  const carried = claims.carried?.length ? { c: claims.carried.map((x) => ({ n: x.needKey, r: x.recordId, v: x.content })) } : {};
  const body = Buffer.from(
    JSON.stringify({
      s: claims.subject,
      t: claims.tenant,
      z: claims.clientId,
      o: claims.tool,
      a: claims.argsHash,
      r: claims.recordId,
      n: claims.needKey,
      k: claims.kind,
      e: claims.expiresAt,
      ...carried,
    }),
  );
  const ciphertext = Buffer.concat([cipher.update(body), cipher.final()]);
  const state = `${VERSION}.${Buffer.concat([iv, ciphertext, cipher.getAuthTag()]).toString("base64url")}`;
  if (state.length > MAX_REQUEST_STATE_LENGTH) throw new RequestStateTooLargeError();
  return state;
}

function decode(key: Buffer, state: string): RequestStateClaims | StateRefusal {
  if (state.length > MAX_REQUEST_STATE_LENGTH || !state.startsWith(`${VERSION}.`)) return "malformed";
  const raw = state.slice(VERSION.length + 1);
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) return "malformed";
  const blob = Buffer.from(raw, "base64url");
  // One encoding per state: Node's decoder ignores the unused low bits of the last character (and
  // stray padding), so another string could decode to the same bytes. Only the exact re-encoding of
  // what was decoded is the state this server issued.
  if (blob.toString("base64url") !== raw) return "malformed";
  if (blob.length < 12 + 16 + 2) return "malformed";
  let plain: Buffer;
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, blob.subarray(0, 12));
    decipher.setAAD(AAD);
    decipher.setAuthTag(blob.subarray(blob.length - 16));
    plain = Buffer.concat([decipher.update(blob.subarray(12, blob.length - 16)), decipher.final()]);
  } catch {
    return "altered";
  }
  // Authenticated, so ours; the shape is still checked rather than trusted.
  const v = JSON.parse(plain.toString("utf8")) as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === "string" ? x : undefined);
  const claims = {
    subject: str(v.s),
    tenant: str(v.t),
    clientId: str(v.z),
    tool: str(v.o),
    argsHash: str(v.a),
    recordId: str(v.r),
    needKey: str(v.n),
    kind: v.k,
    expiresAt: v.e,
  };
  if (
    !claims.subject ||
    !claims.tenant ||
    claims.clientId === undefined ||
    !claims.tool ||
    !claims.argsHash ||
    !claims.recordId ||
    !claims.needKey ||
    (claims.kind !== "form" && claims.kind !== "url") ||
    typeof claims.expiresAt !== "number"
  )
    return "malformed";
  const carried = decodeCarried(v.c);
  if (carried === "malformed") return "malformed";
  return { ...(claims as RequestStateClaims), ...(carried.length ? { carried } : {}) };
}

function decodeCarried(raw: unknown): CarriedAnswer[] | "malformed" {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) return "malformed";
  const out: CarriedAnswer[] = [];
  for (const x of raw as unknown[]) {
    const { n, r, v } = (x ?? {}) as { n?: unknown; r?: unknown; v?: unknown };
    if (typeof n !== "string" || typeof r !== "string" || !v || typeof v !== "object" || Array.isArray(v)) return "malformed";
    out.push({ needKey: n, recordId: r, content: v as Record<string, unknown> });
  }
  return out;
}

/** Opens a state and checks it belongs to this caller (subject, tenant, OAuth client), tool and arguments, and has not expired. */
export function openRequestState(
  key: Buffer,
  state: string,
  expect: { subject: string; tenant: string; clientId: string; tool: string; argsHash: string },
  now = Date.now(),
): OpenedState {
  const claims = decode(key, state);
  if (typeof claims === "string") return { ok: false, reason: claims };
  if (claims.subject !== expect.subject) return { ok: false, reason: "other_user" };
  if (claims.tenant !== expect.tenant) return { ok: false, reason: "other_tenant" };
  // The same person through another OAuth client (another app holding a token for them) is not
  // the caller the state was issued to.
  if (claims.clientId !== expect.clientId) return { ok: false, reason: "other_client" };
  if (claims.tool !== expect.tool) return { ok: false, reason: "other_tool" };
  if (claims.argsHash !== expect.argsHash) return { ok: false, reason: "other_arguments" };
  if (claims.expiresAt <= now) return { ok: false, reason: "expired", claims };
  return { ok: true, claims };
}
