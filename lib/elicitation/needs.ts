// What a workflow needs from the user, classified. The class decides which routes are possible:
// a non-secret field may be asked in a form; a credential, payment or third-party grant only ever
// through URL mode (or a manual path outside the workflow); an approval goes to the approval gate;
// a value an authoritative system already holds is read from it, never asked.
import type { needKind } from "@/db/schema";

export type NeedKind = (typeof needKind.enumValues)[number];

export interface FormSchema {
  type: "object";
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
}

export interface DomainIssue {
  field: string;
  /** A keyword such as "range", "tenant", "not_found", "stale", "transition": never the value. */
  keyword: string;
}

export interface FieldNeed {
  kind: "field";
  key: string;
  purpose: string;
  message: string;
  schema: FormSchema;
  /** Domain rules after schema validation: range, tenant membership, existence, version, transition. */
  validate?: (content: Record<string, unknown>) => Promise<DomainIssue[]> | DomainIssue[];
}

export interface SecretNeed {
  kind: "credential" | "payment" | "grant";
  key: string;
  purpose: string;
  providerId?: string;
}

export interface ApprovalNeed {
  kind: "approval";
  key: string;
  purpose: string;
  action: string;
}

export interface AuthoritativeNeed {
  kind: "authoritative";
  key: string;
  purpose: string;
  source: string;
}

export type Need = FieldNeed | SecretNeed | ApprovalNeed | AuthoritativeNeed;
