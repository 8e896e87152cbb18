// Who runs an operator command, proven: the verified subject of a fresh `ctl login` ID token. In
// the ctl process the token comes from the session file; when the app server runs a forwarded
// command (the local control channel), it comes only from that request, verified by the server
// itself, and never from the server's own environment. `--as` is accepted only when it names the
// proven operator, so it can no longer choose who acts.
import { AsyncLocalStorage } from "node:async_hooks";
import { cliAuthSettings, issuerKeys, OperatorProofError, verifyOperatorIdToken } from "@/lib/auth/cli-proof";
import { readCliSession } from "@/lib/auth/cli-session";
import { CliError } from "./errors";

const channel = new AsyncLocalStorage<{ idToken: string | undefined }>();

/** Runs a forwarded command with the ID token that came with it (or none). */
export function withForwardedProof<T>(idToken: string | undefined, fn: () => Promise<T>): Promise<T> {
  return channel.run({ idToken }, fn);
}

/** The raw stored ID token for the configured issuer, for forwarding; the receiver verifies it. */
export function storedIdToken(): string | undefined {
  try {
    return readCliSession(cliAuthSettings().issuer)?.idToken;
  } catch {
    return undefined;
  }
}

function presentedToken(): string | undefined {
  const forwarded = channel.getStore();
  if (forwarded) return forwarded.idToken;
  let settings;
  try {
    settings = cliAuthSettings();
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  try {
    return readCliSession(settings.issuer)?.idToken;
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** The proven operator's subject; throws a one-line CliError saying how to get a proof. */
export async function proveOperator(asFlag: string | undefined): Promise<string> {
  const token = presentedToken();
  if (!token) throw new CliError('this action needs a signed-in operator: run "ctl login" first');
  let subject: string;
  try {
    const settings = cliAuthSettings();
    subject = (await verifyOperatorIdToken(token, settings, await issuerKeys(settings))).subject;
  } catch (err) {
    if (err instanceof OperatorProofError) throw new CliError(err.message);
    throw new CliError(`the login could not be verified (${(err as Error).message.split("\n")[0]}): run ctl login again`);
  }
  if (asFlag !== undefined && asFlag !== subject)
    throw new CliError(`--as ${asFlag} is not the signed-in operator (${subject}); --as may only repeat who you are`);
  return subject;
}

/** For break-glass engage: the proven operator if there is a valid proof, else undefined. */
export async function provenOperatorOrNone(): Promise<string | undefined> {
  try {
    return await proveOperator(undefined);
  } catch {
    return undefined;
  }
}
