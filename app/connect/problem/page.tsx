import { PROBLEM_TEXT } from "@/lib/connect/flow";
import { one, ownValue } from "@/lib/http/params";

const EXTRA: Record<string, string> = {
  refused: "The provider's answer did not pass the checks. Nothing was connected.",
  not_signed_in: "You are not signed in here any more. Nothing was connected; start again from your MCP client.",
};

export default async function ConnectProblem({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = one((await searchParams).reason);
  const known = ownValue<string>(PROBLEM_TEXT, raw) ?? ownValue(EXTRA, raw);
  const text = known ?? "Nothing was connected.";
  const reason = known ? raw : "unknown";
  return (
    <main id="main" className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-bold">Nothing was connected</h1>
      <p className="mt-3" data-testid="connect-problem" data-problem={reason}>
        {text}
      </p>
    </main>
  );
}
