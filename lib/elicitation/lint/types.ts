export const LINT_CODES = [
  "invalid_request",
  "not_flat_object",
  "unsupported_type",
  "unsupported_keyword",
  "unsupported_format",
  "invalid_keyword_value",
  "url_in_text",
  "secret_requested",
  "payment_requested",
  "one_time_code_requested",
] as const;

export type LintCode = (typeof LINT_CODES)[number];

export interface LintReason {
  code: LintCode;
  /** The property the reason is about, or null for the message / the schema as a whole. */
  field: string | null;
  detail: string;
}

export interface LintVerdict {
  verdict: "allow" | "block";
  reasons: LintReason[];
}
