// Proof of who runs an operator command: an ID token from the authoritative issuer, obtained by
// `ctl login` (device authorization grant) for the CLI's own client id, verified here on every
// use: signature with the issuer's keys, issuer, audience (and azp), expiry, and freshness (issued
// less than CTL_FRESH_LOGIN_SECONDS ago), so a copied or edited session file proves nothing and an
// old login must be renewed. The verified `sub` is the operator; authorize() then checks the role.
import { createLocalJWKSet, createRemoteJWKSet, errors as joseErrors, jwtVerify, type JSONWebKeySet, type JWTVerifyGetKey } from "jose";
import { type Env, readSetting } from "@/lib/config/schema";
import { devJwks } from "./dev-idp/keys";
import { DEV_CLI_CLIENT_ID, oidcConfig } from "./oidc-config";

export interface CliAuthSettings {
  issuer: string;
  clientId: string;
  freshSeconds: number;
  devProvider: boolean;
}

export class OperatorProofError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "OperatorProofError";
  }
}

export function cliAuthSettings(env: Env = process.env): CliAuthSettings {
  const cfg = oidcConfig(env);
  const freshSeconds = readSetting(env, "CTL_FRESH_LOGIN_SECONDS");
  if (cfg.devProvider) return { issuer: cfg.issuer, clientId: DEV_CLI_CLIENT_ID, freshSeconds, devProvider: true };
  const clientId = readSetting(env, "OIDC_CLI_CLIENT_ID");
  if (!clientId)
    throw new Error(
      "OIDC_ISSUER is set: OIDC_CLI_CLIENT_ID must name the issuer's public client for ctl login (device authorization grant)",
    );
  return { issuer: cfg.issuer, clientId, freshSeconds, devProvider: false };
}

const remoteKeys = new Map<string, JWTVerifyGetKey>();

/** The issuer's signing keys: the bundled provider's persisted keys, or the issuer's JWKS. */
export async function issuerKeys(settings: CliAuthSettings, env: Env = process.env): Promise<JWTVerifyGetKey> {
  if (settings.devProvider) {
    const keys = devJwks(env, "dev-oidc").keys.map(({ d: _d, p: _p, q: _q, dp: _dp, dq: _dq, qi: _qi, ...pub }) => pub);
    return createLocalJWKSet({ keys } as JSONWebKeySet);
  }
  const cached = remoteKeys.get(settings.issuer);
  if (cached) return cached;
  const res = await fetch(`${settings.issuer}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(10_000) });
  if (!res.ok) throw new OperatorProofError(`the issuer's discovery document could not be read (HTTP ${res.status})`);
  const jwksUri = (await res.json()) as { jwks_uri?: unknown; issuer?: unknown };
  if (jwksUri.issuer !== settings.issuer || typeof jwksUri.jwks_uri !== "string")
    throw new OperatorProofError("the issuer's discovery document does not name it or its keys");
  const keys = createRemoteJWKSet(new URL(jwksUri.jwks_uri));
  remoteKeys.set(settings.issuer, keys);
  return keys;
}

export interface ProvenOperator {
  subject: string;
  issuedAt: Date;
  expiresAt: Date;
}

export async function verifyOperatorIdToken(
  idToken: string,
  settings: CliAuthSettings,
  keys: JWTVerifyGetKey,
  now = new Date(),
): Promise<ProvenOperator> {
  let payload;
  try {
    ({ payload } = await jwtVerify(idToken, keys, {
      issuer: settings.issuer,
      audience: settings.clientId,
      algorithms: ["RS256", "PS256", "ES256", "EdDSA"],
      currentDate: now,
      requiredClaims: ["sub", "iat", "exp"],
    }));
  } catch (err) {
    if (err instanceof joseErrors.JWTExpired) throw new OperatorProofError("your login has expired: run ctl login again");
    const why = err instanceof joseErrors.JOSEError ? err.code : "malformed";
    throw new OperatorProofError(`the stored login is not valid (${why}): run ctl login again`);
  }
  if (payload.azp !== undefined && payload.azp !== settings.clientId)
    throw new OperatorProofError("the stored login was issued to another client: run ctl login again");
  const issuedAt = new Date(payload.iat! * 1000);
  const age = (now.getTime() - issuedAt.getTime()) / 1000;
  if (age > settings.freshSeconds || age < -60)
    throw new OperatorProofError(`your login is older than ${settings.freshSeconds} seconds: run ctl login again`);
  if (typeof payload.sub !== "string" || payload.sub.length === 0 || payload.sub.length > 255)
    throw new OperatorProofError("the stored login names no subject: run ctl login again");
  return { subject: payload.sub, issuedAt, expiresAt: new Date(payload.exp! * 1000) };
}
