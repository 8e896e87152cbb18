// The command table and dispatcher, shared by the `ctl` process (main.ts) and the app server's
// local control channel (which runs allow-listed commands on its own open store).
import { auditCommand } from "./commands/audit-commands";
import { migrateCommand, seedDemoCommand } from "./commands/store-commands";
import { approvalsCommand } from "./commands/approvals-command";
import { checkUrlCommand } from "./commands/check-url-command";
import { revokeCommand } from "./commands/revoke-command";
import { gatesCommand } from "./commands/gates-command";
import { killSwitchCommand } from "./commands/kill-switch-command";
import { clientProfilesCommand } from "./commands/client-profiles-command";
import { flowsCommand } from "./commands/flows-command";
import { lintSchemaCommand } from "./commands/lint-command";
import { upstreamsCommand } from "./commands/upstreams-command";
import { configCommand } from "./commands/config-command";
import { assertConfig } from "@/lib/config/startup";
import { controlUsage, runControlCommand } from "@/lib/controls/cli-command";
import { cliControl, REGISTERED_CONTROLS } from "@/lib/controls/registry";
import { UsageError } from "./errors";
import { asksForHelp, commandHelp, ctlVersion } from "./help";
import { writeOut } from "./output";

const USAGE = `usage: ctl <command> [options]

commands:
  migrate                     apply database migrations
  seed-demo [--records N]     seed synthetic demo history into an empty store
  audit export --out DIR | --tar FILE
                              export the audit log with a signed manifest
  audit verify DIR | FILE.tar | -
                              verify an evidence export offline (directory, archive or stdin)
  audit verify-store          re-hash the audit chain stored in the database
  login                       sign in as an operator (device code at the issuer); needed for
                              every operator action below except kill-switch on
  whoami | logout             show or forget the signed-in operator
  kill-switch status|on|off   [--scope S] --reason TEXT: stop or restore elicitation
                              (on without a login acts as the system actor "ctl")
  approvals list|approve|reject ID --reason TEXT
  revoke ID | --pending [--flow ID] --reason TEXT
  gates status|record|run --flow ID   gate evidence for canary promotion
                              (--as SUB on these is accepted only if it is the signed-in operator)
  flows list|canary|rollback  FLOW --percent N | FLOW | --workflow NAME, --reason TEXT: releasers
  client-profiles list|set|remove  CLIENT_ID [--profile P --name NAME]: map OAuth client ids (admins)
  upstreams list|add|update|remove|apply  gateway mode: upstream MCP servers (admins)
  check-url URL [--dev]       judge a URL for URL mode; exit 0 allow, 3 warn, 1 block
  lint-schema FILE            lint form params ({message, requestedSchema}); exit 0 allow, 1 block
  token --subject SUB [--tenant T] [--ttl SECONDS] [--client ID]
                              a short-lived MCP access token (development provider only)
  config check [--json]       print the effective configuration (secrets masked); exit 1 on a problem
  serve [--port N]            serve the built app on the configured store
  demo [--port N]             migrate, seed when empty, and serve
`;
const EXIT_CODES = "Exit codes: 0 ok, 1 failure, 2 usage error or unreadable input.";

/** The command list, with the commands declared by controls (lib/controls/registry.ts) after it. */
function usage(): string {
  const declared = REGISTERED_CONTROLS.flatMap((c) =>
    c.cli ? [`  ${controlUsage(c.cli).slice("usage: ctl ".length)}\n                              ${c.cli.summary}\n`] : [],
  );
  return `${USAGE}${declared.join("")}\n${EXIT_CODES}`;
}

export const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  migrate: migrateCommand,
  "seed-demo": seedDemoCommand,
  audit: auditCommand,
  "lint-schema": lintSchemaCommand,
  "check-url": checkUrlCommand,
  "kill-switch": killSwitchCommand,
  flows: flowsCommand,
  "client-profiles": clientProfilesCommand,
  upstreams: upstreamsCommand,
  approvals: approvalsCommand,
  revoke: revokeCommand,
  gates: gatesCommand,
  config: configCommand,
  // Loaded on demand: they pull in Next.js and oidc-provider, which other commands do not need.
  login: async (argv) => (await import("./commands/login-command")).loginCommand(argv),
  logout: async (argv) => (await import("./commands/login-command")).logoutCommand(argv),
  whoami: async (argv) => (await import("./commands/login-command")).whoamiCommand(argv),
  token: async (argv) => (await import("./commands/token-command")).tokenCommand(argv),
  // The configuration is checked before the server's modules load, so a bad value is the one line printed.
  serve: async (argv) => (assertConfig(), (await import("./commands/serve-command")).serveCommand(argv, false)),
  demo: async (argv) => (assertConfig(), (await import("./commands/serve-command")).serveCommand(argv, true)),
};

export async function dispatch(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    writeOut(usage() + "\n");
    return command ? 0 : 2;
  }
  if (command === "--version" || command === "-V") {
    writeOut(ctlVersion() + "\n");
    return 0;
  }
  if (asksForHelp(rest)) {
    const help = Object.hasOwn(COMMANDS, command) || cliControl(command, rest[0]) ? commandHelp(command, rest[0]) : undefined;
    if (!help) throw new UsageError(`unknown command "${command}"; run "ctl help" for the list`);
    writeOut(help);
    return 0;
  }
  // A control declared with a command (lib/controls/registry.ts) needs no command file of its own.
  const control = cliControl(command, rest[0]);
  if (control) return runControlCommand(control, rest.slice(1));
  const run = COMMANDS[command];
  if (!run) throw new UsageError(`unknown command "${command}"; run "ctl help" for the list`);
  return run(rest);
}
