// `npm test` runs this first: everything the suite needs beyond `npm ci` is made present here
// (installed or fetched when the machine allows), or the run stops with the one command to run.
// Nothing is skipped silently. To add a prerequisite, write a Prereq in scripts/prereqs/ and list it.
import { chromiumPrereq } from "./prereqs/chromium";
import { PrereqError, type Prereq } from "./prereqs/prereq";

export const PREREQS: Prereq[] = [chromiumPrereq()];

export async function ensurePrereqs(list: Prereq[], say: (line: string) => void): Promise<boolean> {
  for (const p of list) {
    try {
      await p.ensure(say);
    } catch (err) {
      if (!(err instanceof PrereqError)) throw err;
      say(`ensure-prereqs: ${p.name}: ${err.message}`);
      return false;
    }
  }
  return true;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const say = (line: string) => process.stderr.write(line + "\n");
  process.exitCode = (await ensurePrereqs(PREREQS, say)) ? 0 : 1;
}
