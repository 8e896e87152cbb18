export function StatCard({ label, value, testId }: { label: string; value: number | string; testId?: string }) {
  return (
    <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <dt className="text-sm text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums" data-testid={testId}>
        {typeof value === "number" ? value.toLocaleString("en-US") : value}
      </dd>
    </div>
  );
}
