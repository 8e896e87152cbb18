// What an admin may say about an upstream MCP server, validated before anything is stored: the one
// zod schema the console, `ctl upstreams` and the declarative file share. URLs go through the same
// URL check as URL mode (lib/policy/url-check.ts) plus a refusal of addresses a gateway must never
// be pointed at (cloud metadata, link-local, unspecified): the registry is an SSRF surface.
import { z } from "zod";
import { upstreamAuthKind } from "@/db/schema";
import { isProduction } from "@/lib/config/app-env";
import { hasNoControlCharacters, NO_CONTROL_MESSAGE } from "@/lib/http/params";
import { checkUrl, isLoopbackHost } from "@/lib/policy/url-check";
import { profileDisplayNameSchema } from "@/lib/policy/profile-id";

export const UPSTREAM_ID_PATTERN = /^[a-z][a-z0-9]{1,23}$/;
export const upstreamIdSchema = z
  .string()
  .regex(UPSTREAM_ID_PATTERN, "an upstream id is 2 to 24 lower-case letters and digits, starting with a letter");

/** Only variables with this prefix may be named as an upstream's secret: never the app's own keys. */
export const UPSTREAM_SECRET_ENV_PATTERN = /^UPSTREAM_SECRET_[A-Z0-9_]{1,60}$/;
const secretEnvSchema = z
  .string()
  .regex(UPSTREAM_SECRET_ENV_PATTERN, "name a configuration variable UPSTREAM_SECRET_<NAME> (upper-case letters, digits, underscores)");

const HEADER_NAME = /^[A-Za-z0-9-]{1,64}$/;
// Headers the gateway sets itself or that would change how the request is routed or read.
const RESERVED_HEADERS = new Set([
  "host",
  "content-type",
  "content-length",
  "accept",
  "mcp-session-id",
  "mcp-protocol-version",
  "x-gateway-identity",
  "cookie",
  "transfer-encoding",
  "connection",
]);

const MAX_TEXT = 200;
const boundedText = (max = MAX_TEXT) => z.string().max(max).refine(hasNoControlCharacters, NO_CONTROL_MESSAGE);

export class UpstreamUrlError extends Error {
  override name = "UpstreamUrlError";
}

// 169.254.0.0/16 (cloud metadata), 0.0.0.0/8, IPv6 link-local and unspecified, IPv4-mapped forms.
const FORBIDDEN_HOST =
  /^(?:169\.254\.\d{1,3}\.\d{1,3}|0(?:\.\d{1,3}){3}|\[?(?:fe[89ab][0-9a-f]:[^\]]*|::|::ffff:[^\]]*)\]?|metadata\.google\.internal)$/i;

/** The upstream's endpoint: passes the URL check (warnings refused), no metadata or link-local host. */
export function checkUpstreamUrl(raw: string, dev = !isProduction()): string {
  const check = checkUrl(raw, { dev });
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  if (url && FORBIDDEN_HOST.test(url.hostname))
    throw new UpstreamUrlError(`${raw}: link-local, metadata and unspecified addresses are never upstreams`);
  if (check.verdict !== "allow") throw new UpstreamUrlError(`${raw}: ${check.reasons.map((r) => r.detail).join("; ")}`);
  if (url!.hash) throw new UpstreamUrlError(`${raw}: no fragment in an endpoint URL`);
  return url!.toString();
}

/** An origin its URL-mode links may use: exact scheme://host[:port], HTTPS (loopback HTTP in development). */
export function checkLinkOrigin(raw: string, dev = !isProduction()): string {
  if (raw.includes("*")) throw new UpstreamUrlError(`${raw}: wildcards are not allowed`);
  const check = checkUrl(raw, { dev });
  if (check.verdict !== "allow") throw new UpstreamUrlError(`${raw}: ${check.reasons.map((r) => r.detail).join("; ")}`);
  const url = new URL(raw);
  if (url.pathname !== "/" || url.search || url.hash) throw new UpstreamUrlError(`${raw}: an origin has no path, query or fragment`);
  if (url.protocol === "http:" && !(dev && isLoopbackHost(url.hostname))) throw new UpstreamUrlError(`${raw}: HTTPS only`);
  return url.origin;
}

const urlField = z
  .string()
  .max(2048)
  .transform((s, ctx) => {
    try {
      return checkUpstreamUrl(s);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
      return z.NEVER;
    }
  });

const originField = z
  .string()
  .max(300)
  .transform((s, ctx) => {
    try {
      return checkLinkOrigin(s);
    } catch (err) {
      ctx.addIssue({ code: "custom", message: (err as Error).message });
      return z.NEVER;
    }
  });

export const upstreamAuthSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("none") }).strict(),
  z
    .object({
      kind: z.literal("header"),
      header: z
        .string()
        .regex(HEADER_NAME, "a header name is letters, digits and hyphens")
        .refine((h) => !RESERVED_HEADERS.has(h.toLowerCase()), "that header is set by the gateway itself"),
      secretEnv: secretEnvSchema,
      // e.g. "Bearer ": put before the secret's value.
      prefix: boundedText(32).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal("oauth_client_credentials"),
      issuer: urlField,
      clientId: z.string().regex(/^[\x21-\x7e]{1,200}$/, "a client id is printable ASCII without spaces"),
      clientSecretEnv: secretEnvSchema,
      scope: z
        .string()
        .regex(/^[\x21\x23-\x5b\x5d-\x7e]{1,100}(?: [\x21\x23-\x5b\x5d-\x7e]{1,100}){0,19}$/, "space-separated scope tokens")
        .optional(),
    })
    .strict(),
]);
export type UpstreamAuth = z.infer<typeof upstreamAuthSchema>;

// The schema's enum and the zod union agree: one source (db/schema.ts) for the kinds.
const KINDS: ReadonlyArray<UpstreamAuth["kind"]> = upstreamAuthKind.enumValues;
void KINDS;

const TENANT = z.string().regex(/^[a-z0-9][a-z0-9-]{0,62}$/, "a tenant id is lower-case letters, digits and hyphens");
// MCP tool names: letters, digits, _ - . (the spec's recommendation), or "*" for every tool.
const TOOL = z.string().regex(/^(?:\*|[A-Za-z0-9_.-]{1,64})$/, "a tool name is 1 to 64 letters, digits, _ - or ., or * for all");

const FIELDS = {
  id: upstreamIdSchema,
  displayName: profileDisplayNameSchema,
  url: urlField,
  auth: upstreamAuthSchema,
  tenants: z
    .array(TENANT)
    .min(1, "name at least one tenant")
    .max(100)
    .transform((a) => [...new Set(a)].sort()),
  exposedTools: z
    .array(TOOL)
    .min(1, "expose at least one tool, or *")
    .max(200)
    .transform((a) => [...new Set(a)].sort()),
  urlOrigins: z
    .array(originField)
    .max(50)
    .transform((a) => [...new Set(a)].sort()),
};

export const upstreamInput = z
  .object({ ...FIELDS, auth: FIELDS.auth.default({ kind: "none" }), urlOrigins: FIELDS.urlOrigins.default([]) })
  .strict();
export type UpstreamInput = z.infer<typeof upstreamInput>;

/** Changes to an existing upstream: every field but the id is optional. */
// Built from the fields without their defaults: a field left out of an update keeps its value.
export const upstreamUpdateInput = z.object(FIELDS).partial().required({ id: true }).strict();
export type UpstreamUpdateInput = z.infer<typeof upstreamUpdateInput>;

export const upstreamRemoveInput = z.object({ id: upstreamIdSchema }).strict();

/** The declarative file: the complete set of upstreams a deployment wants (others are removed). */
export const upstreamsFile = z.object({ upstreams: z.array(upstreamInput).max(200) }).strict();
