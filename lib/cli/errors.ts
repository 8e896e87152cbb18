// Exit codes are part of the CLI's contract (README, "ctl"): 0 success, 1 failure or a negative
// verdict, 2 usage error or unreadable input. Commands throw these; main.ts prints one line.
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = 1,
  ) {
    super(message);
    this.name = "CliError";
  }
}

export class UsageError extends CliError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}
