// Bearer authorization for /api/mcp (an OAuth 2.0 protected resource). Access tokens must be JWTs
// (RFC 9068) signed by the authoritative issuer's keys, issued by that issuer, for this resource
// (`aud`), currently valid (`exp`, `nbf`), and carry `sub` and the tenant claim. A token minted for
// another audience is refused: this server never accepts, and never forwards, someone else's token.
import { createRemoteJWKSet, customFetch, errors as joseErrors, jwtVerify, type JWTVerifyGetKey } from "jose";
import { tracedFetch } from "@/lib/telemetry/traced-fetch";
import { claimAt, tenantFromClaimValue } from "./claims";
import { readSetting } from "@/lib/config/schema";

export type BearerErrorCode = "invalid_request" | "invalid_token";

export class BearerError extends Error {
  constructor(
    readonly code: BearerErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "BearerError";
  }
}

export interface McpPrincipal {
  subject: string;
  tenant: string;
  clientId: string;
  scopes: string[];
  expiresAt: number;
}

export interface BearerVerifierOptions {
  issuer: string;
  audience: string;
  /** A claim name or dotted path; its value a string or a one-element array. */
  tenantClaim: string;
  /**
   * The JOSE `typ` required of access tokens: "at+jwt" (RFC 9068) when omitted; null when the
   * issuer sends none (OIDC_ACCESS_TOKEN_TYP=any). Issuer, audience, keys and lifetime are checked
   * either way.
   */
  requiredTyp?: string | null;
  /**
   * Claims that name the OAuth client, first present wins (default client_id, then azp). The
   * client id selects the client profile and so the flow: it must come from the verified token.
   */
  clientIdClaims?: readonly string[];
  /** Defaults to the issuer's discovery document's jwks_uri. */
  jwks?: JWTVerifyGetKey;
  clockToleranceSeconds?: number;
}

const BEARER = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/;

async function discoverJwks(issuer: string): Promise<JWTVerifyGetKey> {
  const res = await tracedFetch(`${issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`issuer discovery failed with HTTP ${res.status}`);
  const doc = (await res.json()) as { issuer?: string; jwks_uri?: string };
  // The discovery document must name exactly the configured issuer (mix-up defence).
  if (doc.issuer !== issuer || !doc.jwks_uri) throw new Error("issuer discovery returned a different issuer or no jwks_uri");
  return createRemoteJWKSet(new URL(doc.jwks_uri), { cooldownDuration: 30_000, cacheMaxAge: 600_000, [customFetch]: tracedFetch });
}

export function createBearerVerifier(options: BearerVerifierOptions) {
  let jwks: Promise<JWTVerifyGetKey> | undefined = options.jwks ? Promise.resolve(options.jwks) : undefined;
  const keys = () => {
    jwks ??= discoverJwks(options.issuer).catch((err: unknown) => {
      jwks = undefined; // retry discovery on the next request
      throw err;
    });
    return jwks;
  };

  return async function verify(authorization: string | null | undefined): Promise<McpPrincipal> {
    if (!authorization) throw new BearerError("invalid_request", "missing bearer token");
    const match = BEARER.exec(authorization.trim());
    if (!match) throw new BearerError("invalid_request", "authorization header is not a bearer token");
    let payload;
    try {
      ({ payload } = await jwtVerify(match[1]!, await keys(), {
        issuer: options.issuer,
        audience: options.audience,
        ...(options.requiredTyp === null ? {} : { typ: options.requiredTyp ?? "at+jwt" }),
        algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
        clockTolerance: options.clockToleranceSeconds ?? 5,
        requiredClaims: ["sub", "exp", "iat"],
      }));
    } catch (err) {
      throw new BearerError("invalid_token", describeJoseError(err));
    }
    const tenant = tenantFromClaimValue(claimAt(payload, options.tenantClaim));
    if (typeof payload.sub !== "string" || !payload.sub) throw new BearerError("invalid_token", "token has no subject");
    if (!tenant) throw new BearerError("invalid_token", "token has no tenant");
    const scope = typeof payload.scope === "string" ? payload.scope.split(" ").filter(Boolean) : [];
    const clientId = clientIdOf(payload, options.clientIdClaims ?? DEFAULT_CLIENT_ID_CLAIMS);
    return { subject: payload.sub, tenant, clientId, scopes: scope, expiresAt: payload.exp! };
  };
}

export const DEFAULT_CLIENT_ID_CLAIMS = ["client_id", "azp"] as const;

function clientIdOf(payload: Record<string, unknown>, claims: readonly string[]): string {
  for (const claim of claims) {
    const v = Object.hasOwn(payload, claim) ? payload[claim] : undefined;
    if (typeof v === "string" && v) return v;
  }
  return "";
}

/** MCP_CLIENT_ID_CLAIM: one claim name that carries the OAuth client id, instead of client_id/azp. */
export function clientIdClaimsFromEnv(env: Record<string, string | undefined> = process.env): readonly string[] {
  const claim = readSetting(env, "MCP_CLIENT_ID_CLAIM");
  return claim === undefined ? DEFAULT_CLIENT_ID_CLAIMS : [claim];
}

// Reasons are keywords for logs and the challenge; never the token or its claims' values.
function describeJoseError(err: unknown): string {
  if (err instanceof joseErrors.JWTExpired) return "token expired";
  if (err instanceof joseErrors.JWTClaimValidationFailed) return `token claim "${err.claim}" is not acceptable`;
  if (err instanceof joseErrors.JWSSignatureVerificationFailed) return "token signature does not verify";
  if (err instanceof joseErrors.JWKSNoMatchingKey) return "token signed by an unknown key";
  if (err instanceof joseErrors.JOSEAlgNotAllowed) return "token algorithm not allowed";
  if (err instanceof joseErrors.JWTInvalid || err instanceof joseErrors.JWSInvalid) return "token is malformed";
  if (err instanceof Error && /discovery/.test(err.message)) return "issuer keys unavailable";
  return "token rejected";
}

/** The RFC 9728 metadata document URL for a resource like https://host/api/mcp. */
export function resourceMetadataUrl(resource: string): string {
  const u = new URL(resource);
  return `${u.origin}/.well-known/oauth-protected-resource${u.pathname === "/" ? "" : u.pathname}`;
}

export function protectedResourceMetadata(resource: string, issuer: string) {
  return {
    resource,
    authorization_servers: [issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: ["mcp"],
    resource_name: "Elicitation gateway MCP endpoint",
  };
}

/** The WWW-Authenticate challenge for a 401 from /api/mcp. */
export function bearerChallenge(resource: string, error?: BearerError): string {
  const parts = [`Bearer resource_metadata="${resourceMetadataUrl(resource)}"`, `scope="mcp"`];
  if (error?.code === "invalid_token") parts.push(`error="invalid_token"`, `error_description="${error.message}"`);
  return parts.join(", ");
}
