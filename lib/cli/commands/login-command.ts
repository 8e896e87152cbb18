// `ctl login | logout | whoami`: signs the operator in through the authoritative issuer with the
// OAuth 2.0 device authorization grant (RFC 8628, openid-client): the verification address and
// code go to stderr, the operator confirms them in a browser where they sign in, and the ID token
// (verified: signature with the issuer's keys, issuer, audience) is kept in the user's session
// file. Operator commands then act as that ID token's subject while it is fresh.
import * as oidc from "openid-client";
import { cliAuthSettings, issuerKeys, OperatorProofError, verifyOperatorIdToken, type CliAuthSettings } from "@/lib/auth/cli-proof";
import { cliSessionFile, readCliSession, removeCliSession, writeCliSession } from "@/lib/auth/cli-session";
import { emit, parse } from "../args";
import { CliError } from "../errors";

function settingsOrFail(): CliAuthSettings {
  try {
    return cliAuthSettings();
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

// Plain HTTP only to this machine (the bundled provider in development); anything else needs TLS.
function isLoopbackHttp(issuer: string): boolean {
  const u = new URL(issuer);
  return u.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(u.hostname);
}

export async function loginCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { json: { type: "boolean" } });
  const settings = settingsOrFail();
  let config: oidc.Configuration;
  try {
    config = await oidc.discovery(new URL(settings.issuer), settings.clientId, undefined, oidc.None(), {
      execute: isLoopbackHttp(settings.issuer) ? [oidc.allowInsecureRequests] : [],
    });
  } catch (err) {
    throw new CliError(`the issuer ${settings.issuer} could not be reached or described (${(err as Error).message.split("\n")[0]})`);
  }
  let tokens: oidc.TokenEndpointResponse;
  try {
    const device = await oidc.initiateDeviceAuthorization(config, { scope: "openid profile" });
    process.stderr.write(`To sign in, open ${device.verification_uri} and enter the code ${device.user_code}\n`);
    if (device.verification_uri_complete) process.stderr.write(`(or open ${device.verification_uri_complete})\n`);
    process.stderr.write("Check that the page shows the same code. Waiting...\n");
    tokens = await oidc.pollDeviceAuthorizationGrant(config, device);
  } catch (err) {
    const code = err instanceof oidc.ResponseBodyError ? err.error : undefined;
    if (code === "access_denied") throw new CliError("the sign-in was cancelled in the browser");
    if (code === "expired_token") throw new CliError("the code expired before the sign-in finished: run ctl login again");
    throw new CliError(`the sign-in failed (${code ?? (err as Error).message.split("\n")[0]})`);
  }
  if (!tokens.id_token) throw new CliError("the issuer returned no ID token: the CLI client must be allowed the openid scope");
  let subject: string;
  try {
    subject = (await verifyOperatorIdToken(tokens.id_token, settings, await issuerKeys(settings))).subject;
  } catch (err) {
    if (err instanceof OperatorProofError) throw new CliError(`the issuer's ID token was refused: ${err.message}`);
    throw err;
  }
  const file = writeCliSession(settings.issuer, {
    clientId: settings.clientId,
    idToken: tokens.id_token,
    accessToken: tokens.access_token,
    obtainedAt: new Date().toISOString(),
  });
  emit(values.json ?? false, { ok: true, subject, issuer: settings.issuer, file }, `signed in as ${subject} at ${settings.issuer}`);
  return 0;
}

export async function logoutCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { json: { type: "boolean" } });
  const settings = settingsOrFail();
  const removed = removeCliSession(settings.issuer);
  emit(values.json ?? false, { ok: true, removed }, removed ? `signed out of ${settings.issuer}` : "not signed in");
  return 0;
}

export async function whoamiCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, { json: { type: "boolean" } });
  const settings = settingsOrFail();
  let entry;
  try {
    entry = readCliSession(settings.issuer);
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (!entry) throw new CliError(`not signed in at ${settings.issuer} (session file ${cliSessionFile()}): run ctl login`);
  try {
    const proven = await verifyOperatorIdToken(entry.idToken, settings, await issuerKeys(settings));
    const freshUntil = new Date(proven.issuedAt.getTime() + settings.freshSeconds * 1000);
    emit(
      values.json ?? false,
      { ok: true, subject: proven.subject, issuer: settings.issuer, freshUntil: freshUntil.toISOString() },
      `${proven.subject} at ${settings.issuer}, fresh for operator actions until ${freshUntil.toISOString()}`,
    );
    return 0;
  } catch (err) {
    if (err instanceof OperatorProofError) throw new CliError(err.message);
    throw err;
  }
}
