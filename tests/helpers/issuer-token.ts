// An MCP access token signed with the development issuer's own key, with the claims a test needs:
// what any issuer could mint (a client id no one mapped, only `azp`, an odd client id). The server
// cannot tell it from one the provider issued, which is the point: it must judge only the claims.
import crypto from "node:crypto";
import { importJWK, SignJWT, type JWK } from "jose";
import { devJwks } from "@/lib/auth/dev-idp/keys";

export async function issuerSignedToken(resource: string, claims: Record<string, unknown>): Promise<string> {
  const jwk = devJwks().keys[0] as JWK & { kid: string };
  const now = Math.floor(Date.now() / 1000);
  const issuer = `${new URL(resource).origin}/oidc`;
  const body: Record<string, unknown> = {
    iss: issuer,
    aud: resource,
    sub: "user-alice-1001",
    tenant: "acme",
    scope: "mcp",
    iat: now,
    exp: now + 300,
    jti: crypto.randomUUID(),
    ...claims,
  };
  for (const [k, v] of Object.entries(body)) if (v === undefined) delete body[k];
  return new SignJWT(body).setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid: jwk.kid }).sign(await importJWK(jwk, "RS256"));
}
