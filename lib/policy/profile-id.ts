// The bounded identifiers governance keys on. Profile ids are admin-defined and validated here;
// a flow id is `workflow:profile`, so it always fits the kill switch's `flow:` scope. Nothing a
// client declares about itself (clientInfo) ever becomes part of one.
import { z } from "zod";

export const UNREGISTERED_PROFILE = "unregistered";

export const PROFILE_ID_PATTERN = /^[a-z0-9][a-z0-9-]{0,62}$/;
export const WORKFLOW_NAME_PATTERN = /^[a-z][a-z0-9_]{0,62}$/;

export const profileIdSchema = z
  .string()
  .regex(PROFILE_ID_PATTERN, "a profile id is 1 to 63 characters: lower-case letters, digits and hyphens, starting with a letter or digit");
export const workflowNameSchema = z
  .string()
  .regex(
    WORKFLOW_NAME_PATTERN,
    "a workflow name is 1 to 63 characters: lower-case letters, digits and underscores, starting with a letter",
  );

// OAuth client ids are chosen by the issuer (dynamic registration makes UUIDs, admins pick names):
// printable ASCII without spaces, bounded, so a row can always be shown and addressed.
export const oauthClientIdSchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, "a client id is 1 to 200 printable ASCII characters without spaces");

export const profileDisplayNameSchema = z
  .string()
  .trim()
  .min(1, "a display name is required")
  .max(100, "keep the display name under 100 characters")
  .refine((s) => !/[\p{Cc}\p{Cf}]/u.test(s), "the display name may not contain control or formatting characters");

export function flowIdFor(workflow: string, profileId: string): string {
  return `${workflowNameSchema.parse(workflow)}:${profileIdSchema.parse(profileId)}`;
}
