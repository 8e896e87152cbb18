import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { DomainHighlight } from "@/components/domain-highlight";
import { currentUser } from "@/lib/auth/session";
import { connectView, PROBLEM_TEXT } from "@/lib/connect/flow";
import { checkUrl } from "@/lib/policy/url-check";

export const dynamic = "force-dynamic";

export default async function ConnectPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const user = await currentUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/connect/${id}`)}`);
  const result = await connectView(await getDb(), id, { sub: user.sub, tenant: user.tenant });
  if (!result.ok) {
    return (
      <main id="main" className="mx-auto max-w-xl p-8">
        <h1 className="text-2xl font-bold">Nothing was connected</h1>
        <p className="mt-3" data-testid="connect-problem" data-problem={result.problem}>
          {PROBLEM_TEXT[result.problem]}
        </p>
      </main>
    );
  }
  const v = result.view;
  const check = checkUrl(v.providerUrl, { dev: true });
  return (
    <main id="main" className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-bold">Connect {v.providerName}</h1>
      <dl className="mt-6 grid gap-4">
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Who asks</dt>
          <dd>
            The Elicitation gateway MCP server, for your client <strong>{v.clientName}</strong> (tool <code>{v.tool}</code>)
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Why</dt>
          <dd data-testid="connect-purpose">{v.purpose}</dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Where you will sign in</dt>
          <dd>
            {v.providerName}: <DomainHighlight url={v.providerUrl} unicodeHost={check.unicodeHost} />
          </dd>
        </div>
        <div>
          <dt className="text-sm text-slate-600 dark:text-slate-400">Signed in here as</dt>
          <dd>
            {user.name} (this link works only for you, until {v.expiresAt.toISOString().replace("T", " ").slice(0, 16)} UTC)
          </dd>
        </div>
      </dl>
      <p className="mt-6 text-sm">Your {v.providerName} password and tokens never pass through your MCP client or the AI model.</p>
      {v.startedAt ? (
        <p
          className="mt-6 rounded border border-amber-600 bg-amber-50 p-3 text-sm dark:bg-amber-950"
          role="status"
          data-testid="connect-started"
        >
          You pressed Continue at {v.startedAt.toISOString().replace("T", " ").slice(0, 16)} UTC, but the sign-in at {v.providerName} did
          not come back here. Start again for a fresh sign-in; the earlier one stops working.
        </p>
      ) : null}
      <form method="post" action={`/connect/${v.id}/decision`} className="mt-6 flex flex-wrap gap-3">
        {v.startedAt ? (
          <button name="action" value="restart" className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800">
            Start again at {v.providerName}
          </button>
        ) : (
          <button name="action" value="continue" className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800">
            Continue to {v.providerName}
          </button>
        )}
        <button
          name="action"
          value="decline"
          className="rounded border border-slate-500 px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          Decline
        </button>
        <button
          name="action"
          value="cancel"
          className="rounded border border-slate-500 px-4 py-2 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          Cancel
        </button>
      </form>
    </main>
  );
}
