import { ForbiddenNotice } from "@/components/forbidden-notice";
import { KillSwitchForm } from "@/components/kill-switch-form";
import { StatCard } from "@/components/stat-card";
import { consolePageAccess } from "@/lib/console/page-access";
import { hasPermission, PERMISSIONS } from "@/lib/auth/permissions";
import { storeCounts } from "@/lib/metrics/store-counts";
import { HealthTable } from "@/components/health-table";
import { VolumeChart } from "@/components/volume-chart";
import { dailyVolume, GROUP_CHOICES, healthByGroup, overviewQuery, PERIOD_CHOICES } from "@/lib/metrics/overview";
import { MIN_GROUP } from "@/lib/metrics/prometheus";
import Link from "next/link";
import { RefusedLine } from "@/components/ui/status-line";
import { describeRefusal, parseSearchParams } from "@/lib/http/search-params";
import { killSwitchImpact } from "@/lib/policy/kill-switch-impact";
import { killSwitchFormAction } from "./actions";

export const dynamic = "force-dynamic";

export default async function OverviewPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const access = await consolePageAccess("overview");
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const parsed = parseSearchParams(overviewQuery, await searchParams);
  const q = parsed.data;
  const [counts, health, volume, impact] = await Promise.all([
    storeCounts(access.db),
    healthByGroup(access.db, q),
    dailyVolume(access.db, q),
    killSwitchImpact(access.db),
  ]);
  const link = (change: Partial<typeof q>) => `/console?${new URLSearchParams({ ...q, ...change })}`;
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">Overview</h1>
      <p className="mt-1 text-slate-700 dark:text-slate-300">
        Live counts from the store. Records hold field names, hashes and error keywords; never a value.
      </p>
      <dl className="mt-6 grid grid-cols-2 gap-4 md:grid-cols-4">
        <StatCard label="Elicitation records" value={counts.records} testId="count-records" />
        <StatCard label="MCP sessions" value={counts.sessions} testId="count-sessions" />
        <StatCard label="Flows" value={counts.flows} testId="count-flows" />
        <StatCard label="Audit entries" value={counts.audit.entries} testId="count-audit" />
      </dl>
      <section aria-labelledby="health-heading" className="mt-8">
        <h2 id="health-heading" className="text-xl font-semibold">
          Health
        </h2>
        {parsed.ok ? null : <RefusedLine message={describeRefusal(parsed.fieldErrors)} />}
        <nav aria-label="Period and grouping" className="mt-2 flex flex-wrap gap-4 text-sm">
          {(
            [
              ["Period", "period", PERIOD_CHOICES],
              ["By", "by", GROUP_CHOICES],
            ] as const
          ).map(([label, key, choices]) => (
            <span key={key}>
              {label}:{" "}
              {choices.map((c) => (
                <Link
                  key={c}
                  href={link({ [key]: c })}
                  aria-current={q[key] === c ? "page" : undefined}
                  className={`mr-2 underline ${q[key] === c ? "font-bold" : ""}`}
                >
                  {c}
                </Link>
              ))}
            </span>
          ))}
        </nav>
        <VolumeChart data={volume} />
        <HealthTable rows={health} by={q.by} />
        <p className="mt-2 text-xs text-slate-600 dark:text-slate-400">
          Groups with fewer than {MIN_GROUP} records are folded into &quot;other&quot; so that a count cannot single out a person. Time to
          resume: from sending the request to the person&apos;s answer.
        </p>
      </section>
      <div className="mt-8 grid gap-8 md:grid-cols-2">
        <section aria-labelledby="states-heading">
          <h2 id="states-heading" className="text-xl font-semibold">
            Records by state
          </h2>
          <table className="mt-3 w-full text-left">
            <thead>
              <tr className="border-b border-slate-300 dark:border-slate-700">
                <th scope="col" className="py-1">
                  State
                </th>
                <th scope="col" className="py-1 text-right">
                  Records
                </th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(counts.recordsByState).map(([state, n]) => (
                <tr key={state} className="border-b border-slate-100 dark:border-slate-900">
                  <td className="py-1 font-mono text-sm">{state}</td>
                  <td className="py-1 text-right tabular-nums" data-testid={`state-${state}`}>
                    {n.toLocaleString("en-US")}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-4 text-sm text-slate-700 dark:text-slate-300">
            Audit chain head:{" "}
            <code className="break-all" data-testid="audit-head">
              {counts.audit.headHash ?? "(empty)"}
            </code>
          </p>
        </section>
        <section aria-labelledby="kill-switch-heading">
          <h2 id="kill-switch-heading" className="text-xl font-semibold">
            Kill switch
          </h2>
          <KillSwitchForm
            action={killSwitchFormAction}
            canChange={hasPermission(access.operator.roles, PERMISSIONS.killSwitchChange)}
            impact={impact}
          />
        </section>
      </div>
    </main>
  );
}
