// Phishing: every form the workflow can send passes the form linter (as declared and as the target
// actually sent it), every URL it emits passes the URL check and leads to the target itself, and
// look-alike variants of the target's origin are refused (by the URL check, or absent from the
// target's origin allowlist when its store is reachable).
import { listOrigins } from "@/lib/policy/origins";
import { lintFormRequest } from "@/lib/elicitation/lint";
import { checkUrl, isLoopbackHost } from "@/lib/policy/url-check";
import { declaredModes, variantLabel } from "./client-variants";
import { fieldNeeds, grantNeeds, type GateContext } from "./context";
import { withSession, type Elicited } from "./mcp-session";
import { expectThat, finishGate, runCheck, type CheckResult, type GateResult } from "./types";

/** Look-alikes of an origin: a homoglyph host, userinfo in front, the host as a subdomain, another scheme. */
export function lookAlikes(origin: string): string[] {
  const u = new URL(origin);
  const host = u.hostname;
  const homoglyph = host.replace(/o/, "\u043e").replace(/a/, "\u0430");
  const out = [
    `${u.protocol}//${host}@evil.example${u.pathname}`,
    `https://${host}.evil.example/`,
    `${u.protocol}//${host.replace(/\./g, "-")}-login.example/`,
  ];
  if (homoglyph !== host) out.push(`https://${homoglyph}/`);
  out.push(u.protocol === "https:" ? `http://${u.host}/` : `https://${host}.example/`);
  return out;
}

async function firstElicitation(ctx: GateContext, variantIndex: number): Promise<Elicited | undefined> {
  const v = ctx.profile.variants[variantIndex]!;
  const { token } = await ctx.tokens.fresh("ph");
  return withSession(
    ctx.target.mcpUrl,
    token,
    v,
    () => ({ action: "cancel" }),
    async (s) => {
      await s.call(ctx.workflow.name);
      return s.received[0];
    },
  );
}

export async function phishingGate(ctx: GateContext): Promise<GateResult> {
  const started = performance.now();
  const checks: CheckResult[] = [];
  const dev = isLoopbackHost(new URL(ctx.target.baseUrl).hostname);
  for (const need of fieldNeeds(ctx.workflow)) {
    checks.push(
      await runCheck(`form ${need.key} passes the linter (as declared)`, async () => {
        const v = lintFormRequest({ mode: "form", message: need.message, requestedSchema: need.schema });
        expectThat(v.verdict === "allow", `blocked: ${v.reasons.map((r) => r.code).join(", ")}`);
        return "allowed";
      }),
    );
    const i = ctx.profile.variants.findIndex((v) => declaredModes(v).form);
    if (i >= 0) {
      checks.push(
        await runCheck(
          `form ${need.key} passes the linter (as the target sent it)`,
          async () => {
            const sent = await firstElicitation(ctx, i);
            expectThat(sent, "the target sent no form");
            const v = lintFormRequest({ mode: "form", message: sent.message, requestedSchema: sent.requestedSchema });
            expectThat(v.verdict === "allow", `blocked: ${v.reasons.map((r) => r.code).join(", ")}`);
            return "allowed";
          },
          variantLabel(ctx.profile.variants[i]!),
        ),
      );
    }
  }
  if (grantNeeds(ctx.workflow).length > 0) {
    const i = ctx.profile.variants.findIndex((v) => declaredModes(v).url);
    if (i >= 0) {
      checks.push(
        await runCheck(
          "the URL the flow emits passes the URL check and leads to the target",
          async () => {
            const sent = await firstElicitation(ctx, i);
            expectThat(sent?.url, "the target sent no URL");
            const verdict = checkUrl(sent.url, { dev });
            expectThat(verdict.verdict === "allow", `URL check: ${verdict.verdict} (${verdict.reasons.map((r) => r.code).join(", ")})`);
            expectThat(
              new URL(sent.url).origin === new URL(ctx.target.baseUrl).origin,
              "the URL leads to another origin than the target's",
            );
            return `allowed, origin ${new URL(sent.url).origin}`;
          },
          variantLabel(ctx.profile.variants[i]!),
        ),
      );
    }
  }
  const allowed = ctx.target.db
    ? new Set((await listOrigins(ctx.target.db)).filter((o) => !("disabledAt" in o) || !o.disabledAt).map((o) => o.origin))
    : null;
  for (const url of lookAlikes(ctx.target.baseUrl)) {
    checks.push(
      await runCheck(`look-alike ${url} is refused`, async () => {
        const verdict = checkUrl(url, { dev });
        let origin: string | null = null;
        try {
          origin = new URL(url).origin;
        } catch {
          // unparseable: refused by the URL check below
        }
        const onAllowlist = origin !== null && allowed !== null && allowed.has(origin);
        expectThat(
          verdict.verdict !== "allow" || (allowed !== null && !onAllowlist),
          `accepted: URL check ${verdict.verdict}${allowed === null ? ", allowlist not reachable" : onAllowlist ? ", on the allowlist" : ""}`,
        );
        return verdict.verdict !== "allow"
          ? `URL check ${verdict.verdict} (${verdict.reasons.map((r) => r.code).join(", ")})`
          : "not on the target's origin allowlist";
      }),
    );
  }
  return finishGate("phishing", started, checks);
}
