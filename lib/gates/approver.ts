// The second operator behind an approval flow's gates. An approval step is decided by a person
// other than the one who asked and other than the releaser: the gate never decides in anyone's
// name on its own. The approver proves who they are with their own `ctl login` (a session file
// they hand to the pipeline, e.g. CTL_SESSION_FILE=approver.json ctl login); each decision then
// goes through the product's own decideApproval, which checks their permission on the server,
// refuses their own request and writes its audit entry in the same transaction.
import type { Db } from "@/db/client";
import type { Env } from "@/db/config";
import type { Approval } from "@/db/schema";
import { decideApproval } from "@/lib/approvals/decide";
import { cliAuthSettings, issuerKeys, verifyOperatorIdToken } from "@/lib/auth/cli-proof";
import { readCliSession } from "@/lib/auth/cli-session";

export interface GateApprover {
  subject: string;
  decide(db: Db, id: string, decision: "approve" | "reject", reason: string): Promise<Approval>;
}

/** The approver proven by a `ctl login` session file; throws a sentence saying what is wrong. */
export async function approverFromSessionFile(file: string, env: Env = process.env): Promise<GateApprover> {
  const settings = cliAuthSettings(env);
  const entry = readCliSession(settings.issuer, { ...env, CTL_SESSION_FILE: file });
  if (!entry?.idToken)
    throw new Error(
      `--approver-session ${file}: no ctl login for ${settings.issuer} in it (the approver runs CTL_SESSION_FILE=${file} ctl login)`,
    );
  const proven = await verifyOperatorIdToken(entry.idToken, settings, await issuerKeys(settings, env));
  return { subject: proven.subject, decide: (db, id, decision, reason) => decideApproval(db, proven.subject, { id, decision, reason }) };
}
