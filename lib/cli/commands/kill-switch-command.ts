// `ctl kill-switch status|on|off`: the break-glass controls, for when the console is unreachable.
// Engaging needs a reason; releasing follows the same two-person rule as the console: the first
// `off` records a request, a second, different operator confirms it. Who acts is proven by
// `ctl login` (operator-proof.ts), never chosen with --as; without a login only engaging works,
// as the system actor "ctl" (break-glass must work even when the issuer is down).
import { activeKillSwitches, engageKillSwitch, KillSwitchError, releaseKillSwitch } from "@/lib/policy/kill-switch";
import { z } from "zod";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { emit, parse, positiveInt } from "../args";
import { authorizeCli } from "../as-operator";
import { CliError, UsageError } from "../errors";
import { proveOperator, provenOperatorOrNone } from "../operator-proof";
import { withStore } from "../store";

const USAGE =
  "usage: ctl kill-switch status | on | off [--scope global|mode:form|mode:url|flow:WORKFLOW:PROFILE|workflow:NAME|upstream:ID] --reason TEXT [--as YOURSELF] [--expires-in MINUTES] [--json] (off needs ctl login)";

export async function killSwitchCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = parse(rest, {
    scope: { type: "string", default: "global" },
    reason: { type: "string" },
    as: { type: "string" },
    "expires-in": { type: "string" },
    json: { type: "boolean" },
  });
  const json = values.json ?? false;
  if (sub === "status") {
    const active = await withStore("ctl kill-switch", (s) => activeKillSwitches(s.db));
    emit(
      json,
      { ok: true, active },
      active.length
        ? active
            .map(
              (k) =>
                `ENGAGED ${k.scope}: ${k.reason} (by ${k.changedBy}${k.expiresAt ? `, until ${k.expiresAt.toISOString()}` : ""}${k.releaseRequestedBy ? `, release requested by ${k.releaseRequestedBy}` : ""})`,
            )
            .join("\n")
        : "no kill switch engaged",
    );
    return 0;
  }
  if (sub !== "on" && sub !== "off") throw new UsageError(sub ? `unknown kill-switch command "${sub}"; ${USAGE}` : USAGE);
  if (!values.reason) throw new UsageError(`--reason is required; ${USAGE}`);
  const minutes = values["expires-in"] === undefined ? undefined : positiveInt("expires-in", values["expires-in"], 0);
  // Releasing (or naming yourself with --as) needs a proven operator; engaging takes one if there
  // is a valid login and otherwise acts as the system actor.
  const subject = sub === "off" || values.as !== undefined ? await proveOperator(values.as) : await provenOperatorOrNone();
  return withStore("ctl kill-switch", async (store) => {
    let actor: { type: "operator" | "system"; id: string } = { type: "system", id: "ctl" };
    if (subject) {
      await authorizeCli(
        store.db,
        subject,
        PERMISSIONS.killSwitchChange,
        { type: "kill_switch", id: values.scope! },
        "change the kill switch",
      );
      actor = { type: "operator", id: subject };
    }
    try {
      if (sub === "on") {
        await engageKillSwitch(store.db, actor, {
          scope: values.scope!,
          reason: values.reason!,
          expiresAt: minutes ? new Date(Date.now() + minutes * 60_000) : undefined,
        });
        emit(json, { ok: true, scope: values.scope, state: "engaged", actor }, `kill switch ${values.scope} engaged by ${actor.id}`);
      } else {
        const r = await releaseKillSwitch(store.db, actor, { scope: values.scope!, reason: values.reason! });
        emit(
          json,
          { ok: true, ...r, actor },
          r.state === "released"
            ? `kill switch ${r.scope} released`
            : `release of ${r.scope} requested; a second operator must confirm with the same command`,
        );
      }
      return 0;
    } catch (err) {
      if (err instanceof KillSwitchError) throw new CliError(err.message);
      if (err instanceof z.ZodError) throw new UsageError(err.issues[0]?.message ?? "invalid input");
      throw err;
    }
  });
}
