// `ctl upstreams list | add | update ID | remove ID | apply FILE`: the gateway's upstream MCP
// servers (admins). `add`/`update` take flags or `--file` with one upstream as JSON; `apply FILE`
// makes the registry equal to a declarative JSON file ({ "upstreams": [...] }), idempotently.
// Every change is audited as the signed-in operator, exactly as from the console.
import fs from "node:fs";
import type { z } from "zod";
import { PERMISSIONS } from "@/lib/auth/permissions";
import { addUpstream, applyUpstreams, authOf, listUpstreams, removeUpstream, updateUpstream, UpstreamError } from "@/lib/gateway/registry";
import { upstreamInput, upstreamRemoveInput, upstreamsFile, upstreamUpdateInput } from "@/lib/gateway/upstream-input";
import { emit, parse } from "../args";
import { asOperator } from "../as-operator";
import { CliError, UsageError } from "../errors";
import { withStore } from "../store";

const USAGE = `usage: ctl upstreams list [--json]
       ctl upstreams add --id ID --name NAME --url URL --tenant T [--tenant T2] [--tool NAME|*] [--origin https://...] [--header H --secret-env UPSTREAM_SECRET_X [--prefix "Bearer "]] | --file UPSTREAM.json
       ctl upstreams update ID [the same flags] | --file UPSTREAM.json
       ctl upstreams remove ID
       ctl upstreams apply FILE.json      ({"upstreams": [...]}; upstreams not in the file are removed)
  (changes act as the signed-in operator; --as SUB must repeat that subject)`;

const OPTIONS = {
  id: { type: "string" },
  name: { type: "string" },
  url: { type: "string" },
  tenant: { type: "string", multiple: true },
  tool: { type: "string", multiple: true },
  origin: { type: "string", multiple: true },
  header: { type: "string" },
  "secret-env": { type: "string" },
  prefix: { type: "string" },
  file: { type: "string" },
  as: { type: "string" },
  json: { type: "boolean" },
} as const;

function readJson(file: string): unknown {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (err) {
    throw new UsageError(`${file}: ${err instanceof Error ? err.message : "unreadable"}`);
  }
}

function firstIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  return issue ? `${issue.path.join(".") || "input"}: ${issue.message}` : "invalid input";
}

type Values = ReturnType<typeof parse<typeof OPTIONS>>["values"];

function fromFlags(values: Values, id: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (id !== undefined) out.id = id;
  if (values.name !== undefined) out.displayName = values.name;
  if (values.url !== undefined) out.url = values.url;
  if (values.tenant) out.tenants = values.tenant;
  if (values.tool) out.exposedTools = values.tool;
  if (values.origin) out.urlOrigins = values.origin;
  if (values.header || values["secret-env"])
    out.auth = {
      kind: "header",
      header: values.header,
      secretEnv: values["secret-env"],
      ...(values.prefix ? { prefix: values.prefix } : {}),
    };
  return out;
}

export async function upstreamsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values, positionals } = parse(rest, OPTIONS, true);
  const json = values.json ?? false;
  if (sub === "list") {
    const rows = await withStore("ctl upstreams", (s) => listUpstreams(s.db));
    const shown = rows.map((r) => ({
      id: r.id,
      displayName: r.displayName,
      url: r.url,
      auth: authOf(r),
      tenants: r.tenants,
      exposedTools: r.exposedTools,
      urlOrigins: r.urlOrigins,
    }));
    emit(
      json,
      { ok: true, upstreams: shown },
      shown.length
        ? shown
            .map((r) => `${r.id}  ${r.url}  tenants=${r.tenants.join(",")}  tools=${r.exposedTools.join(",")}  auth=${r.auth.kind}`)
            .join("\n")
        : "no upstreams",
    );
    return 0;
  }
  // Bad input is a usage error before the store is opened.
  let run: (db: Parameters<typeof addUpstream>[0], actor: string) => Promise<string>;
  let target: string;
  if (sub === "add" || sub === "update") {
    const raw = values.file ? readJson(values.file) : fromFlags(values, sub === "add" ? values.id : positionals[0]);
    if (sub === "update" && values.file && positionals[0] && raw && typeof raw === "object")
      (raw as Record<string, unknown>).id = positionals[0];
    const parsed = (sub === "add" ? upstreamInput : upstreamUpdateInput).safeParse(raw);
    if (!parsed.success) throw new UsageError(`${firstIssue(parsed.error)}\n${USAGE}`);
    target = parsed.data.id;
    run = async (db, actor) => {
      const row =
        sub === "add"
          ? await addUpstream(db, actor, parsed.data as z.infer<typeof upstreamInput>)
          : await updateUpstream(db, actor, parsed.data);
      return `${sub === "add" ? "added" : "updated"} ${row.id}`;
    };
  } else if (sub === "remove") {
    const parsed = upstreamRemoveInput.safeParse({ id: positionals[0] });
    if (!parsed.success || positionals.length !== 1) throw new UsageError(USAGE);
    target = parsed.data.id;
    run = async (db, actor) => `removed ${(await removeUpstream(db, actor, parsed.data)).id}`;
  } else if (sub === "apply") {
    if (positionals.length !== 1) throw new UsageError(USAGE);
    const parsed = upstreamsFile.safeParse(readJson(positionals[0]!));
    if (!parsed.success) throw new UsageError(`${positionals[0]}: ${firstIssue(parsed.error)}`);
    target = "*";
    run = async (db, actor) => {
      const r = await applyUpstreams(db, actor, parsed.data);
      return JSON.stringify(r);
    };
  } else {
    throw new UsageError(sub ? `unknown upstreams command "${sub}"\n${USAGE}` : USAGE);
  }
  return withStore("ctl upstreams", async (store) => {
    const operator = await asOperator(store.db, values.as, PERMISSIONS.upstreamsManage, { type: "upstream", id: target }, USAGE);
    try {
      const text = await run(store.db, operator.subject);
      emit(json, sub === "apply" ? { ok: true, ...JSON.parse(text) } : { ok: true, result: text }, text);
      return 0;
    } catch (err) {
      if (err instanceof UpstreamError) throw new CliError(err.message);
      throw err;
    }
  });
}
