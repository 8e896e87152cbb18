// The latest gate evidence of a flow: each gate's outcome and, when it did not pass, which check
// and why; a link downloads the signed document.
export interface EvidenceSummary {
  hash: string;
  createdAt: Date;
  ranBy: string;
  target: string;
  passed: boolean;
  gates: Array<{ gate: string; outcome: string; reason: string | null; checks: number }>;
}

export function GateEvidenceSummary({ flowId, evidence }: { flowId: string; evidence: EvidenceSummary }) {
  return (
    <details className="mt-2 text-xs" data-evidence={evidence.hash}>
      <summary>
        Gate evidence {evidence.createdAt.toISOString().slice(0, 16).replace("T", " ")} UTC against {evidence.target}:{" "}
        {evidence.passed ? "passed" : "not passing"}
      </summary>
      <ul className="mt-1 grid gap-0.5" aria-label={`Gate evidence of ${flowId}`}>
        {evidence.gates.map((g) => (
          <li key={g.gate} data-gate={g.gate} data-outcome={g.outcome}>
            <strong>{g.gate}</strong>: {g.outcome.replace(/_/g, " ")} ({g.checks} checks){g.reason ? ` — ${g.reason}` : ""}
          </li>
        ))}
      </ul>
      <p className="mt-1">
        Run by {evidence.ranBy}; SHA-256 <span className="font-mono">{evidence.hash.slice(0, 16)}…</span>{" "}
        <a className="underline" href={`/api/console/gates/evidence/${evidence.hash}`}>
          Download signed evidence
        </a>
      </p>
    </details>
  );
}
