// The upstream registry: which MCP servers the gateway stands in front of, for which tenants, with
// which tools exposed and which origins their URL-mode links may use. Every change is one
// transaction with its audit entry (the actor, the upstream, which fields changed; never a secret,
// and the store holds none: `auth` names the configuration variable that does).
import { and, arrayContains, asc, eq } from "drizzle-orm";
import canonicalize from "canonicalize";
import type { z } from "zod";
import type { Db, DbOrTx, Tx } from "@/db/client";
import { upstreams, type Upstream } from "@/db/schema";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { appendAudit } from "@/lib/audit/writer";
import { upstreamChanged } from "./registry-events";
import {
  upstreamInput,
  upstreamRemoveInput,
  upstreamsFile,
  upstreamUpdateInput,
  type UpstreamAuth,
  type UpstreamInput,
} from "./upstream-input";

export class UpstreamError extends Error {
  override name = "UpstreamError";
}

/** Every upstream, by id, for the console and `ctl upstreams list`. */
export async function listUpstreams(db: DbOrTx): Promise<Upstream[]> {
  return db.select().from(upstreams).orderBy(asc(upstreams.id));
}

export async function getUpstream(db: DbOrTx, id: string): Promise<Upstream | undefined> {
  const [row] = await db.select().from(upstreams).where(eq(upstreams.id, id)).limit(1);
  return row;
}

/** The upstreams a tenant may use: a tenant not listed never sees or calls their tools. */
export async function upstreamsForTenant(db: DbOrTx, tenant: string): Promise<Upstream[]> {
  return db
    .select()
    .from(upstreams)
    .where(arrayContains(upstreams.tenants, [tenant]))
    .orderBy(asc(upstreams.id));
}

/** The auth column, read back through the same schema that wrote it. */
export function authOf(row: Upstream): UpstreamAuth {
  // Two columns, one value: the writer (rowValues) split it with the same schema, so the kind and
  // the settings agree; TypeScript cannot see that across columns.
  return { kind: row.authKind, ...row.auth } as UpstreamAuth;
}

function rowValues(input: UpstreamInput) {
  const { kind, ...auth } = input.auth;
  return {
    displayName: input.displayName,
    url: input.url,
    authKind: kind,
    auth,
    tenants: input.tenants,
    exposedTools: input.exposedTools,
    urlOrigins: input.urlOrigins,
  };
}

const COMPARED = ["displayName", "url", "authKind", "auth", "tenants", "exposedTools", "urlOrigins"] as const;

function changedFields(before: Upstream, after: ReturnType<typeof rowValues>): string[] {
  // Canonical JSON: jsonb hands keys back in its own order.
  return COMPARED.filter((k) => canonicalize(before[k]) !== canonicalize(after[k]));
}

function asInput(row: Upstream): UpstreamInput {
  return {
    id: row.id,
    displayName: row.displayName,
    url: row.url,
    auth: authOf(row),
    tenants: row.tenants,
    exposedTools: row.exposedTools,
    urlOrigins: row.urlOrigins,
  };
}

export async function addUpstream(db: Db, actor: string, raw: z.input<typeof upstreamInput>): Promise<Upstream> {
  const input = upstreamInput.parse(raw);
  return notify(
    input.id,
    db.transaction(async (tx) => {
      const [row] = await tx
        .insert(upstreams)
        .values({ id: input.id, ...rowValues(input), createdBy: actor })
        .onConflictDoNothing()
        .returning();
      if (!row) throw new UpstreamError(`upstream ${input.id} already exists; update it instead`);
      await appendAudit(tx, {
        actorType: "operator",
        actorId: actor,
        action: AUDIT_ACTIONS.upstreamAdded,
        targetType: "upstream",
        targetId: input.id,
        detail: { auth: input.auth.kind, tenants: input.tenants, tools: input.exposedTools.length, origins: input.urlOrigins.length },
      });
      return row;
    }),
  );
}

export async function updateUpstream(db: Db, actor: string, raw: z.input<typeof upstreamUpdateInput>): Promise<Upstream> {
  const patch = upstreamUpdateInput.parse(raw);
  return notify(
    patch.id,
    db.transaction(async (tx) => {
      const [before] = await tx.select().from(upstreams).where(eq(upstreams.id, patch.id)).for("update");
      if (!before) throw new UpstreamError(`upstream ${patch.id} does not exist`);
      const merged = upstreamInput.parse({
        ...asInput(before),
        ...Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined)),
      });
      return writeUpdate(tx, actor, before, merged);
    }),
  );
}

async function writeUpdate(tx: Tx, actor: string, before: Upstream, input: UpstreamInput): Promise<Upstream> {
  const values = rowValues(input);
  const fields = changedFields(before, values);
  if (fields.length === 0) return before;
  const [row] = await tx
    .update(upstreams)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(upstreams.id, before.id))
    .returning();
  await appendAudit(tx, {
    actorType: "operator",
    actorId: actor,
    action: AUDIT_ACTIONS.upstreamUpdated,
    targetType: "upstream",
    targetId: before.id,
    detail: { fields, auth: values.authKind, tenants: values.tenants },
  });
  return row!;
}

export async function removeUpstream(db: Db, actor: string, raw: z.input<typeof upstreamRemoveInput>): Promise<Upstream> {
  const { id } = upstreamRemoveInput.parse(raw);
  return notify(
    id,
    db.transaction(async (tx) => {
      const [row] = await tx
        .delete(upstreams)
        .where(and(eq(upstreams.id, id)))
        .returning();
      if (!row) throw new UpstreamError(`upstream ${id} does not exist`);
      await appendAudit(tx, {
        actorType: "operator",
        actorId: actor,
        action: AUDIT_ACTIONS.upstreamRemoved,
        targetType: "upstream",
        targetId: id,
        detail: { tenants: row.tenants },
      });
      return row;
    }),
  );
}

export interface ApplyResult {
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: string[];
}

/**
 * Makes the registry equal to a declarative file, in one transaction: adds, updates and removes so
 * that applying the same file twice changes (and audits) nothing the second time.
 */
export async function applyUpstreams(db: Db, actor: string, raw: unknown): Promise<ApplyResult> {
  const file = upstreamsFile.parse(raw);
  const ids = file.upstreams.map((u) => u.id);
  const dup = ids.find((id, i) => ids.indexOf(id) !== i);
  if (dup) throw new UpstreamError(`upstream ${dup} appears twice in the file`);
  const result = await db.transaction(async (tx) => {
    const existing = new Map((await tx.select().from(upstreams).for("update")).map((r) => [r.id, r]));
    const out: ApplyResult = { added: [], updated: [], removed: [], unchanged: [] };
    for (const input of file.upstreams) {
      const before = existing.get(input.id);
      if (!before) {
        await tx.insert(upstreams).values({ id: input.id, ...rowValues(input), createdBy: actor });
        await appendAudit(tx, {
          actorType: "operator",
          actorId: actor,
          action: AUDIT_ACTIONS.upstreamAdded,
          targetType: "upstream",
          targetId: input.id,
          detail: {
            auth: input.auth.kind,
            tenants: input.tenants,
            tools: input.exposedTools.length,
            origins: input.urlOrigins.length,
            source: "file",
          },
        });
        out.added.push(input.id);
      } else if ((await writeUpdate(tx, actor, before, input)) !== before) out.updated.push(input.id);
      else out.unchanged.push(input.id);
    }
    for (const [id, row] of existing) {
      if (ids.includes(id)) continue;
      await tx.delete(upstreams).where(eq(upstreams.id, id));
      await appendAudit(tx, {
        actorType: "operator",
        actorId: actor,
        action: AUDIT_ACTIONS.upstreamRemoved,
        targetType: "upstream",
        targetId: id,
        detail: { tenants: row.tenants, source: "file" },
      });
      out.removed.push(id);
    }
    return out;
  });
  for (const id of [...result.added, ...result.updated, ...result.removed]) upstreamChanged(id);
  return result;
}

/** After the transaction commits: this instance drops sessions and tool lists made under the old row. */
async function notify<T>(id: string, committed: Promise<T>): Promise<T> {
  const value = await committed;
  upstreamChanged(id);
  return value;
}
