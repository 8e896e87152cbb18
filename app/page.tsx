import { getDb } from "@/db";
import { StatCard } from "@/components/stat-card";
import { storeCounts } from "@/lib/metrics/store-counts";

// Counts are read from the store on every request: nothing here may be cached or prerendered.
export const dynamic = "force-dynamic";

export default async function HomePage() {
  const counts = await storeCounts(await getDb());
  const states = Object.entries(counts.recordsByState);
  return (
    <main id="main" className="mx-auto max-w-5xl p-8">
      <h1 className="text-3xl font-bold">Elicitation gateway</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">
        Live counts from the store. Records hold field names, hashes and error keywords; never a value.
      </p>
      <dl className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-4">
        <StatCard label="Elicitation records" value={counts.records} testId="count-records" />
        <StatCard label="MCP sessions" value={counts.sessions} testId="count-sessions" />
        <StatCard label="Flows" value={counts.flows} testId="count-flows" />
        <StatCard label="Audit entries" value={counts.audit.entries} testId="count-audit" />
      </dl>
      <h2 className="mt-8 text-xl font-semibold">Records by state</h2>
      <table className="mt-3 w-full max-w-md text-left">
        <thead>
          <tr className="border-b border-slate-200 dark:border-slate-800">
            <th scope="col" className="py-1">State</th>
            <th scope="col" className="py-1 text-right">Records</th>
          </tr>
        </thead>
        <tbody>
          {states.map(([state, n]) => (
            <tr key={state} className="border-b border-slate-100 dark:border-slate-900">
              <td className="py-1 font-mono text-sm">{state}</td>
              <td className="py-1 text-right tabular-nums" data-testid={`state-${state}`}>{n.toLocaleString("en-US")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-6 text-sm text-slate-600 dark:text-slate-400">
        Audit chain head:{" "}
        <code className="break-all" data-testid="audit-head">{counts.audit.headHash ?? "(empty)"}</code>
      </p>
    </main>
  );
}
