import { PROBLEM_TEXT, type Problem } from "@/lib/connect/flow";

const EXTRA: Record<string, string> = {
  refused: "The provider's answer did not pass the checks. Nothing was connected.",
  not_signed_in: "You are not signed in here any more. Nothing was connected; start again from your MCP client.",
};

export default async function ConnectProblem({ searchParams }: { searchParams: Promise<{ reason?: string }> }) {
  const { reason = "" } = await searchParams;
  const text = PROBLEM_TEXT[reason as Problem] ?? EXTRA[reason] ?? "Nothing was connected.";
  return (
    <main id="main" className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-bold">Nothing was connected</h1>
      <p className="mt-3" data-testid="connect-problem" data-problem={reason}>{text}</p>
    </main>
  );
}
