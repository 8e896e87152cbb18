// One thing the test suite needs beyond `npm ci`. `ensure` makes it present (installing it when the
// machine allows) or throws a PrereqError whose message is the one command a person must run.
export interface Prereq {
  name: string;
  ensure(say: (line: string) => void): void | Promise<void>;
}

export class PrereqError extends Error {
  override name = "PrereqError";
}
