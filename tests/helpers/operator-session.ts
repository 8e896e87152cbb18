// The session file a completed `ctl login` leaves behind, for tests whose subject is not the login
// itself: an ID token for the CLI client, signed with the bundled provider's persisted keys, fresh.
// The real device flow is exercised end to end in tests/integration/ctl-login.test.ts.
import { importJWK, SignJWT } from "jose";
import { cliAuthSettings } from "@/lib/auth/cli-proof";
import { writeCliSession } from "@/lib/auth/cli-session";
import { devJwks } from "@/lib/auth/dev-idp/keys";

export async function writeOperatorSession(env: Record<string, string | undefined>, subject: string): Promise<void> {
  const settings = cliAuthSettings(env);
  const jwk = devJwks(env, "dev-oidc").keys[0]!;
  const key = await importJWK(jwk as Parameters<typeof importJWK>[0], "RS256");
  const idToken = await new SignJWT({ azp: settings.clientId })
    .setProtectedHeader({ alg: "RS256", kid: String(jwk.kid) })
    .setIssuer(settings.issuer)
    .setAudience(settings.clientId)
    .setSubject(subject)
    .setIssuedAt()
    .setExpirationTime("1h")
    .sign(key);
  writeCliSession(settings.issuer, { clientId: settings.clientId, idToken, obtainedAt: new Date().toISOString() }, env);
}
