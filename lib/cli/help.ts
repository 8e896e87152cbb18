// Per-command help and the version, formatted by commander from one table: `ctl COMMAND --help`
// (or -h) prints that command's usage and exits 0; `ctl --version` (or -V) prints the package
// version. Parsing stays with each command (node:util parseArgs), so exit codes and `--json`
// output are what they were; commander only describes the commands.
import fs from "node:fs";
import path from "node:path";
import { Command } from "commander";
import { controlUsage } from "@/lib/controls/cli-command";
import { REGISTERED_CONTROLS } from "@/lib/controls/registry";

const COMMAND_HELP: Record<string, { usage: string; summary: string }> = {
  migrate: { usage: "[--json]", summary: "apply database migrations" },
  "seed-demo": {
    usage: "[--records N] [--if-empty] [--json]",
    summary: "seed synthetic demo history into an empty store (progress on stderr when it is a terminal)",
  },
  audit: {
    usage:
      "export (--out DIR | --tar FILE) [--from ISO] [--to ISO] [--format ndjson|csv] [--force] [--json]\n       ctl audit verify (DIR | FILE.tar | -) [--fingerprint sha256:HEX] [--json]\n       ctl audit verify-store [--json]",
    summary:
      "export the audit log with a signed manifest, verify an export offline, or re-hash the stored chain (export and file verify show progress on stderr when it is a terminal)",
  },
  login: { usage: "", summary: "sign in as an operator (device code at the issuer)" },
  whoami: { usage: "", summary: "show the signed-in operator" },
  logout: { usage: "", summary: "forget the signed-in operator" },
  "kill-switch": {
    usage:
      "status | on | off [--scope global|mode:form|mode:url|flow:WORKFLOW:PROFILE|workflow:NAME|upstream:ID] --reason TEXT [--expires-in MINUTES] [--as YOURSELF] [--json]",
    summary: "stop or restore elicitation; on works without a login (break-glass), off needs two signed-in operators",
  },
  approvals: {
    usage: "list | approve ID | reject ID --reason TEXT [--as YOURSELF] [--json]",
    summary: "the approval queue, as the signed-in operator",
  },
  revoke: {
    usage: "ID | --pending [--flow ID] --reason TEXT [--as YOURSELF] [--json]",
    summary: "revoke unfinished handles, as the signed-in operator",
  },
  gates: {
    usage: "status | record | run --flow ID [--target URL] [--as YOURSELF] [--json]",
    summary: "gate evidence for canary promotion",
  },
  flows: {
    usage: "list | canary FLOW --percent N | rollback (FLOW | --workflow NAME) --reason TEXT [--as YOURSELF] [--json]",
    summary: "flow stages (releasers)",
  },
  "client-profiles": {
    usage: "list | set CLIENT_ID --profile P --name NAME | remove CLIENT_ID [--as YOURSELF] [--json]",
    summary: "map OAuth client ids to client profiles (admins)",
  },
  upstreams: {
    usage: "list | add | update | remove | apply FILE.json [--json]",
    summary: "gateway mode: the upstream MCP servers (admins)",
  },
  "check-url": { usage: "URL [--dev]", summary: "judge a URL for URL mode; exit 0 allow, 3 warn, 1 block" },
  "lint-schema": { usage: "FILE", summary: "lint form params ({message, requestedSchema}); exit 0 allow, 1 block" },
  token: {
    usage: "--subject SUB [--tenant T] [--ttl SECONDS] [--client ID]",
    summary: "a short-lived MCP access token (development provider only)",
  },
  config: { usage: "check [--json]", summary: "print the effective configuration (secrets masked); exit 1 on a problem" },
  serve: { usage: "[--port N]", summary: "serve the built app on the configured store" },
  demo: { usage: "[--port N]", summary: "migrate, seed when empty, and serve" },
};

export function ctlVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, "../../package.json"), "utf8")) as { version: string };
  return pkg.version;
}

function program(): Command {
  const ctl = new Command("ctl").version(ctlVersion(), "-V, --version").description("the operator's command line");
  for (const [name, h] of Object.entries(COMMAND_HELP)) ctl.command(name).usage(h.usage).description(h.summary);
  for (const c of REGISTERED_CONTROLS) {
    if (!c.cli) continue;
    // Added as one command named "flows pause": .command() would read "pause" as an argument.
    const name = c.cli.command.join(" ");
    ctl.addCommand(new Command(name).usage(controlUsage(c.cli).slice(`usage: ctl ${name} `.length)).description(c.cli.summary));
  }
  return ctl;
}

/** True when `--help` or `-h` is among a command's arguments (before a `--`). */
export function asksForHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** The help text of `ctl COMMAND [SUB]`: a declared control's own when there is one, else the command's; undefined if unknown. */
export function commandHelp(command: string, sub: string | undefined): string | undefined {
  const ctl = program();
  const declared = sub === undefined ? undefined : ctl.commands.find((c) => c.name() === `${command} ${sub}`);
  const found = declared ?? ctl.commands.find((c) => c.name() === command);
  return found?.helpInformation();
}
