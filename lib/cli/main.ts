// `ctl`: the operator's command line (npm run -s ctl -- <command>). Every failure is one line on
// stderr and a non-zero exit; see errors.ts for the exit codes. When the embedded store is held by
// a running app server, allow-listed commands are forwarded to it over the local control channel.
import { StoreUnavailableError } from "@/db/client";
import { storeFailureOf, storeFailureText } from "@/db/errors";
import { StoreBusyError } from "@/db/store-lock";
import { forwardToServer } from "./control-client";
import { dispatch } from "./dispatch";
import { CliError } from "./errors";

function describe(err: unknown): { message: string; code: number } {
  if (err instanceof CliError) return { message: err.message, code: err.exitCode };
  if (err instanceof StoreBusyError || err instanceof StoreUnavailableError) return { message: err.message, code: 1 };
  // The transaction was rolled back: say that nothing changed, not a driver message.
  const failure = storeFailureOf(err);
  if (failure) return { message: `not done: ${storeFailureText(failure)}; nothing was changed`, code: 1 };
  if (err instanceof Error) return { message: `${err.name}: ${err.message.split("\n")[0]}`, code: 1 };
  return { message: String(err), code: 1 };
}

async function main(argv: string[]): Promise<number> {
  try {
    return await dispatch(argv);
  } catch (err) {
    if (err instanceof StoreBusyError) {
      const forwarded = await forwardToServer(argv);
      if (forwarded !== undefined) return forwarded;
    }
    throw err;
  }
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
