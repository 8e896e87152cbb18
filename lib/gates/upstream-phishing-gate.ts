// Phishing for an upstream tool's flow, over every elicitation the upstream sent in this gate run
// (the contract and privacy calls, in every client variant): each form the client was shown
// passes the linter; each link it was shown passes the URL check and the upstream's origin
// allowlist; and the upstream sent nothing the gateway had to block (a form asking for a password,
// a look-alike link): the gateway stopping it is right, but a tool that tries is not promoted, so
// that check fails with the gateway's reason. The upstream's configured link origins pass the URL
// check, and look-alikes of each are refused (by the URL check or the allowlist).
import { lintFormRequest } from "@/lib/elicitation/lint";
import { checkUrl, isLoopbackHost } from "@/lib/policy/url-check";
import { lookAlikes } from "./phishing-gate";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";
import { recordsUnavailable, type UpstreamGateContext } from "./upstream-context";

export async function upstreamPhishingGate(ctx: UpstreamGateContext): Promise<GateResult> {
  const started = performance.now();
  const dev = isLoopbackHost(new URL(ctx.target.baseUrl).hostname);
  const origins = ctx.tool.upstream.urlOrigins;
  const checks: CheckResult[] = [];
  const received = ctx.seen.flatMap((c) => c.received);
  const calls = ctx.seen.length;
  if (calls === 0) {
    checks.push({
      name: "the upstream's elicitations in this run",
      outcome: "could_not_run",
      detail: "could not run: no call of the tool went through in this run (see contract)",
      ms: 0,
    });
  } else {
    checks.push(
      await runCheck("every form shown to the client passes the linter", async () => {
        const forms = received.filter((e) => (e.mode ?? "form") === "form");
        for (const f of forms) {
          const v = lintFormRequest({ mode: "form", message: f.message, requestedSchema: f.requestedSchema });
          expectThat(v.verdict === "allow", `a form was shown that the linter blocks: ${v.reasons.map((r) => r.code).join(", ")}`);
        }
        return `${forms.length} form(s) shown in ${calls} call(s), each allowed by the linter`;
      }),
      await runCheck("every link shown to the client passes the URL check and the upstream's allowlist", async () => {
        const links = received.filter((e) => e.mode === "url");
        for (const l of links) {
          expectThat(typeof l.url === "string", "a link elicitation carried no URL");
          const verdict = checkUrl(l.url, { dev });
          expectThat(
            verdict.verdict === "allow",
            `a link was shown that the URL check refuses (${verdict.reasons.map((r) => r.code).join(", ")})`,
          );
          expectThat(
            origins.includes(new URL(l.url).origin),
            `a link to ${new URL(l.url).origin} was shown, not on the upstream's allowlist`,
          );
        }
        return `${links.length} link(s) shown in ${calls} call(s), each allowed`;
      }),
    );
    const records = ctx.seen.map((c) => c.records);
    if (records.some((r) => r === null)) {
      checks.push({
        name: "the upstream sent nothing the gateway had to block",
        outcome: "could_not_run",
        detail: `could not run: the engine's decisions are unknown: ${recordsUnavailable(ctx)}`,
        ms: 0,
      });
    } else {
      checks.push(
        await runCheck("the upstream sent nothing the gateway had to block", async () => {
          const all = records.flat().filter((r) => r !== null);
          const blocked = all.filter((r) => r!.routeDecision === "blocked");
          expectThat(
            blocked.length === 0,
            `the gateway blocked ${blocked.length} of ${all.length} elicitation(s) the upstream sent: ${[...new Set(blocked.map((r) => `${r!.mode}: ${r!.routeReason}`))].join("; ")}`,
          );
          return `${all.length} elicitation(s) recorded, none blocked`;
        }),
      );
    }
  }
  if (origins.length === 0) {
    checks.push(
      await runCheck("the upstream's link origins", async () => "none configured: every link the upstream sends is blocked by the gateway"),
    );
  }
  for (const origin of origins) {
    checks.push(
      await runCheck(`configured origin ${origin} passes the URL check`, async () => {
        const verdict = checkUrl(origin, { dev });
        expectThat(verdict.verdict === "allow", `URL check: ${verdict.verdict} (${verdict.reasons.map((r) => r.code).join(", ")})`);
        return "allowed";
      }),
    );
    for (const url of lookAlikes(origin)) {
      checks.push(
        await runCheck(`look-alike ${url} of ${origin} is refused`, async () => {
          const verdict = checkUrl(url, { dev });
          let at: string | null = null;
          try {
            at = new URL(url).origin;
          } catch {
            // unparseable: refused by the URL check
          }
          const listed = at !== null && origins.includes(at);
          expectThat(
            verdict.verdict !== "allow" || !listed,
            `accepted: URL check ${verdict.verdict} and ${at} is on the upstream's allowlist`,
          );
          return verdict.verdict !== "allow"
            ? `URL check ${verdict.verdict} (${verdict.reasons.map((r) => r.code).join(", ")})`
            : "not on the upstream's allowlist";
        }),
      );
    }
  }
  return finishGate("phishing", started, checks);
}
