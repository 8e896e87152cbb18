// list_repositories: needs a grant from the demo downstream provider. Connected: the workflow calls
// the provider's API server-side with the vaulted token (the token never reaches the client or the
// model). Not connected and URL mode declared: a URL elicitation. No URL mode: the fallback (a
// setup link outside the workflow, or a refusal), never a form.
import type { SecretNeed } from "@/lib/elicitation/needs";
import { engineConfig } from "@/lib/elicitation/config";
import { appUrl } from "@/lib/auth/oidc-config";
import { connectionTokens } from "@/lib/connect/connections";
import { providerInfo } from "@/lib/connect/registry";
import { downstreamConnections } from "@/db/schema";
import { eq } from "drizzle-orm";
import { unansweredResult } from "./outcome-result";
import { defineWorkflow, textResult } from "./types";

/**
 * The provider this workflow's grant names. The workflow only names it: the registry says where it
 * is (the demo registers it when it starts, lib/demo/provider.ts; a deployment may register its own).
 */
export const REPOSITORIES_PROVIDER_ID = "demo-git";

export const demoGitGrant: SecretNeed = {
  kind: "grant",
  key: "demo_git",
  purpose: "Read your repositories on Demo Git",
  providerId: REPOSITORIES_PROVIDER_ID,
};

export const listRepositories = defineWorkflow({
  name: "list_repositories",
  title: "List your repositories",
  description: "Lists your repositories on Demo Git. The first time, it asks you to connect Demo Git in your browser (URL mode).",
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  needs: [demoGitGrant],
  async run(rt) {
    const outcome = await rt.ensureGrant(demoGitGrant);
    if (outcome.status === "pending") {
      const structured = { outcome: "connect_pending", elicitationId: outcome.recordId, reused: outcome.reused };
      if (outcome.connectUrl) {
        return textResult(
          `Open ${outcome.connectUrl} in your browser to connect Demo Git (you sign in there, not here), then call list_repositories again. Nothing was done yet.`,
          { ...structured, connectUrl: outcome.connectUrl },
        );
      }
      return textResult(
        "Connect Demo Git in your browser using the link your client showed, then call list_repositories again. Nothing was done yet.",
        structured,
      );
    }
    if (outcome.status !== "connected") {
      const cooldownMinutes = Math.round(engineConfig().cooldownMs / 60_000);
      // The manual path outside the workflow: the setup page connects from the browser.
      const setupUrl = rt.flow.setupUrl ?? `${appUrl()}/setup/${REPOSITORIES_PROVIDER_ID}`;
      if (outcome.status === "failed")
        return unansweredResult({ status: "failed", recordId: outcome.recordId, reason: outcome.reason }, { setupUrl, cooldownMinutes });
      return unansweredResult(outcome, { setupUrl, cooldownMinutes });
    }
    const [connection] = await rt.db
      .select()
      .from(downstreamConnections)
      .where(eq(downstreamConnections.id, outcome.connectionId))
      .limit(1);
    const tokens = await connectionTokens(rt.db, connection!);
    // The provider's API is its registered resource (RFC 8707): the token was issued for exactly it.
    const api = (await providerInfo(rt.db, REPOSITORIES_PROVIDER_ID)).resource;
    if (!api)
      return textResult("Demo Git is registered without an API (resource). Nothing was done.", { outcome: "provider_refused" }, true);
    const res = await fetch(`${api}/repos`, {
      headers: { authorization: `Bearer ${tokens.access_token}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!res.ok)
      return textResult(
        `Demo Git refused the stored connection (HTTP ${res.status}). Nothing was done.`,
        { outcome: "provider_refused", status: res.status },
        true,
      );
    const body = (await res.json()) as { repositories: string[] };
    return textResult(`Your repositories on Demo Git: ${body.repositories.join(", ") || "(none)"}.`, {
      outcome: "completed",
      repositories: body.repositories,
    });
  },
});
