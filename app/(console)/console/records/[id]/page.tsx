import { DomainHighlight } from "@/components/domain-highlight";
import { ForbiddenNotice } from "@/components/forbidden-notice";
import { consolePageAccess } from "@/lib/console/page-access";
import { recordWithEvents } from "@/lib/elicitation/record-queries";
import { isRecordId } from "@/lib/elicitation/records";
import { checkUrl } from "@/lib/policy/url-check";

export const dynamic = "force-dynamic";

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-3 gap-2 border-b border-slate-100 py-1 dark:border-slate-900">
      <dt className="text-slate-600 dark:text-slate-400">{label}</dt>
      <dd className="col-span-2 break-all">{children}</dd>
    </div>
  );
}

export default async function RecordDetail({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  const access = await consolePageAccess("records", {
    target: { type: "elicitation", id: id.slice(0, 64) },
    path: `/console/records/${id}`,
  });
  if (!access.ok) return <ForbiddenNotice name={access.user.name} reason={access.reason} />;
  const found = isRecordId(id) ? await recordWithEvents(access.db, id) : undefined;
  if (!found) {
    return (
      <main id="main">
        <h1 className="text-2xl font-bold">No such record</h1>
      </main>
    );
  }
  const { record: r, events } = found;
  const errors = r.validationErrors;
  return (
    <main id="main">
      <h1 className="text-2xl font-bold">
        Record <span className="font-mono text-lg">{r.id}</span>
      </h1>
      <div className="mt-4 grid gap-8 md:grid-cols-2">
        <section aria-labelledby="facts">
          <h2 id="facts" className="text-lg font-semibold">
            Facts (never a value)
          </h2>
          <dl className="mt-2 text-sm">
            <Row label="State">
              <span className="font-mono" data-testid="record-state">
                {r.state}
              </span>
              {r.endReason === "client_disconnected" ? " (the client went away; no person cancelled)" : ""}
            </Row>
            <Row label="Mode / need">
              {r.mode} / {r.needKind}
            </Row>
            <Row label="Router decision">
              <span data-testid="record-route">
                {r.routeDecision}: {r.routeReason}
              </span>
            </Row>
            <Row label="Originating request">
              {r.requestMethod} #{r.requestId} ({r.toolName})
            </Row>
            <Row label="Flow">{r.flowId ?? "-"}</Row>
            <Row label="Client">
              {r.clientName} {r.clientVersion}
            </Row>
            <Row label="Protocol revision">
              <span data-testid="record-revision">{r.protocolVersion}</span>
            </Row>
            <Row label="Subject / tenant">
              <span className="font-mono">{r.subject}</span> / {r.tenantId}
            </Row>
            <Row label="Purpose">{r.purpose}</Row>
            <Row label="Schema hash">
              <span className="font-mono text-xs">{r.schemaHash ?? "-"}</span>
            </Row>
            <Row label="Field names">{r.fieldNames.join(", ") || "-"}</Row>
            <Row label="Validation errors">{errors.length ? errors.map((e) => `${e.field}: ${e.keyword}`).join("; ") : "-"}</Row>
            <Row label="Prevented repeats">{r.preventedRepeats}</Row>
            {r.mode === "url" ? (
              <>
                <Row label="Provider">{r.providerId}</Row>
                <Row label="Connect origin">
                  {r.targetOrigin ? (
                    <DomainHighlight url={r.targetOrigin} unicodeHost={checkUrl(r.targetOrigin, { dev: true }).unicodeHost} />
                  ) : (
                    "-"
                  )}
                </Row>
                <Row label="Redirect URI">
                  <span className="font-mono text-xs">{r.redirectUri}</span>
                </Row>
                <Row label="Expires">{r.expiresAt?.toISOString() ?? "-"}</Row>
                <Row label="Content dropped">{r.droppedContentCount}</Row>
                <Row label="Late callback">{r.lateCallbackAt?.toISOString() ?? "-"}</Row>
              </>
            ) : null}
          </dl>
        </section>
        <section aria-labelledby="timeline">
          <h2 id="timeline" className="text-lg font-semibold">
            Timeline
          </h2>
          <ol className="mt-2 text-sm" data-testid="timeline">
            {events.map((e) => (
              <li key={e.id} className="border-b border-slate-100 py-1 dark:border-slate-900">
                <time className="font-mono text-xs">{e.at.toISOString()}</time> <strong>{e.toState}</strong> by {e.actorType} {e.actorId}
                {e.reason ? `: ${e.reason}` : ""}
                {Object.keys(e.detail).length ? (
                  <span className="ml-1 font-mono text-xs text-slate-600 dark:text-slate-400">{JSON.stringify(e.detail)}</span>
                ) : null}
              </li>
            ))}
          </ol>
        </section>
      </div>
    </main>
  );
}
