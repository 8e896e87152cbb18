// `ctl client-profiles list | set CLIENT_ID --profile P --name NAME --as SUB | remove CLIENT_ID --as SUB`:
// which verified OAuth client ids belong to which client profile (and so to which flows). A client
// id that is not mapped belongs to "unregistered". Admins only; every change is audited.
import { PERMISSIONS } from "@/lib/auth/permissions";
import type { z } from "zod";
import {
  ClientProfileError,
  listClientProfiles,
  removeClientProfile,
  removeClientProfileInput,
  setClientProfile,
  setClientProfileInput,
} from "@/lib/policy/client-profiles";
import { emit, parse } from "../args";
import { asOperator } from "../as-operator";
import { CliError, UsageError } from "../errors";
import { withStore } from "../store";

const USAGE =
  "usage: ctl client-profiles list | set CLIENT_ID --profile PROFILE --name DISPLAY_NAME --as SUBJECT | remove CLIENT_ID --as SUBJECT [--json]";

export async function clientProfilesCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(
    rest,
    { profile: { type: "string" }, name: { type: "string" }, as: { type: "string" }, json: { type: "boolean" } },
    true,
  );
  const json = values.json ?? false;
  if (sub === "list") {
    const rows = await withStore("ctl client-profiles", (s) => listClientProfiles(s.db));
    emit(
      json,
      { ok: true, profiles: rows },
      rows.length
        ? rows
            .map(
              (r) =>
                `${r.clientId}  ->  ${r.profileId}  (${r.displayName})${r.disabledAt ? `  removed ${r.disabledAt.toISOString()}` : ""}`,
            )
            .join("\n")
        : 'no client profiles: every client is "unregistered"',
    );
    return 0;
  }
  if (sub !== "set" && sub !== "remove") throw new UsageError(sub ? `unknown client-profiles command "${sub}"; ${USAGE}` : USAGE);
  if (positionals.length !== 1) throw new UsageError(USAGE);
  if (sub === "set" && (!values.profile || !values.name)) throw new UsageError(`--profile and --name are required; ${USAGE}`);
  // Bad input is a usage error before the store is even opened.
  const parsed =
    sub === "set"
      ? setClientProfileInput.safeParse({ clientId: positionals[0], profileId: values.profile, displayName: values.name })
      : removeClientProfileInput.safeParse({ clientId: positionals[0] });
  if (!parsed.success) throw new UsageError(parsed.error.issues[0]?.message ?? "invalid input");
  const { clientId } = parsed.data;
  return withStore("ctl client-profiles", async (store) => {
    const operator = await asOperator(
      store.db,
      values.as,
      PERMISSIONS.clientProfilesManage,
      { type: "client_profile", id: clientId },
      USAGE,
    );
    try {
      if (sub === "set") {
        const row = await setClientProfile(store.db, operator.subject, parsed.data as z.infer<typeof setClientProfileInput>);
        emit(json, { ok: true, clientId: row.clientId, profile: row.profileId }, `${row.clientId} -> ${row.profileId}`);
      } else {
        const row = await removeClientProfile(store.db, operator.subject, { clientId });
        emit(
          json,
          { ok: true, clientId: row.clientId, profile: "unregistered" },
          `${row.clientId} removed from ${row.profileId}; it is now "unregistered"`,
        );
      }
      return 0;
    } catch (err) {
      if (err instanceof ClientProfileError) throw new CliError(err.message);
      throw err;
    }
  });
}
