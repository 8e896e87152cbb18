// The shapes of the jsonb columns (db/schema.ts `$type<>()`), so readers get a type instead of
// casting `unknown`. Types only: the database does not check them, the writers in lib/ do (zod
// schemas, assertValueFree), so a reader of a hand-edited row may still meet anything else.
// Defined here, not in lib/, because db/ is the bottom layer; lib/ re-exports what it shares.

/** A scalar or a list of names: what a value-free audit detail may hold (lib/audit/value-free.ts). */
export type AuditDetail = Record<string, string | number | boolean | null | string[]>;

/** Value-free detail of a record's transition event: field names, error keywords, counts. */
export type RecordEventDetail = Record<string, unknown>;

/** Which field failed which rule, never the value (lib/elicitation/needs.ts DomainIssue). */
export interface ValidationIssue {
  field: string;
  keyword: string;
}

/** The client's `capabilities` from initialize, stored verbatim; only `elicitation` is read. */
export type ClientCapabilitiesJson = { elicitation?: Record<string, unknown> } & Record<string, unknown>;

/**
 * The client's `elicitation` capability as declared for the request that made a record (raw, `{}`
 * stays `{}`), bounded by lib/elicitation/capabilities.ts declaredElicitation. Capability shape only.
 */
export type DeclaredElicitationJson = Record<string, unknown>;

/** What a flow's fingerprint was computed over (lib/policy/fingerprint.ts). */
export type FingerprintInputs = Record<string, unknown>;

/**
 * An upstream's auth settings without their kind (the kind is its own column, upstreams.auth_kind).
 * Names only: `secretEnv` / `clientSecretEnv` name the variable that holds the secret.
 */
export type UpstreamAuthSettings =
  | Record<string, never>
  | { header: string; secretEnv: string; prefix?: string }
  | { issuer: string; clientId: string; clientSecretEnv: string; scope?: string };
