// `ctl`: the operator's command line (npm run -s ctl -- <command>). Every failure is one line on
// stderr and a non-zero exit; see errors.ts for the exit codes.
import { StoreUnavailableError } from "@/db/client";
import { StoreBusyError } from "@/db/store-lock";
import { auditCommand } from "./commands/audit-commands";
import { migrateCommand, seedDemoCommand } from "./commands/store-commands";
import { lintSchemaCommand } from "./commands/lint-command";
import { CliError, UsageError } from "./errors";

const USAGE = `usage: ctl <command> [options]

commands:
  migrate                     apply database migrations
  seed-demo [--records N]     seed synthetic demo history into an empty store
  audit export --out DIR      export the audit log with a signed manifest
  audit verify DIR            verify an exported evidence directory offline
  audit verify-store          re-hash the audit chain stored in the database
  lint-schema FILE            lint form params ({message, requestedSchema}); exit 0 allow, 1 block
  token --subject SUB [--tenant T] [--ttl SECONDS]
                              a short-lived MCP access token (development provider only)
  serve [--port N]            serve the built app on the configured store
  demo [--port N]             migrate, seed when empty, and serve

Exit codes: 0 ok, 1 failure, 2 usage error or unreadable input.`;

const COMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  migrate: migrateCommand,
  "seed-demo": seedDemoCommand,
  audit: auditCommand,
  "lint-schema": lintSchemaCommand,
  // Loaded on demand: they pull in Next.js and oidc-provider, which other commands do not need.
  token: async (argv) => (await import("./commands/token-command")).tokenCommand(argv),
  serve: async (argv) => (await import("./commands/serve-command")).serveCommand(argv, false),
  demo: async (argv) => (await import("./commands/serve-command")).serveCommand(argv, true),
};

export async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === "help" || command === "--help" || command === "-h") {
    process.stdout.write(USAGE + "\n");
    return command ? 0 : 2;
  }
  const run = COMMANDS[command];
  if (!run) throw new UsageError(`unknown command "${command}"; run "ctl help" for the list`);
  return run(rest);
}

function describe(err: unknown): { message: string; code: number } {
  if (err instanceof CliError) return { message: err.message, code: err.exitCode };
  if (err instanceof StoreBusyError || err instanceof StoreUnavailableError) return { message: err.message, code: 1 };
  if (err instanceof Error) return { message: `${err.name}: ${err.message.split("\n")[0]}`, code: 1 };
  return { message: String(err), code: 1 };
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    const { message, code } = describe(err);
    process.stderr.write(`ctl: ${message}\n`);
    process.exitCode = code;
  },
);
