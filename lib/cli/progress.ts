// Progress for the long commands (audit export, audit verify of a file, seed-demo), drawn with
// cli-progress on stderr, and only when stderr is a terminal: a script, a CI log or a pipe sees
// exactly the output it saw before, and stdout (where --json goes) is never touched. A command run
// for another process over the control channel draws nothing either (its stderr is not the
// operator's terminal).
import { Presets, SingleBar } from "cli-progress";
import { isCaptured } from "./output";

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

const NONE: Progress = { update() {}, stop() {} };

export function progress(label: string, unit: string, stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || isCaptured()) return NONE;
  const bar = new SingleBar(
    { stream, format: `${label} [{bar}] {percentage}% {value}/{total} ${unit}`, hideCursor: true, clearOnComplete: true },
    Presets.shades_classic,
  );
  let started = false;
  return {
    update(done, total) {
      if (!started) {
        bar.start(Math.max(total, 1), 0);
        started = true;
      }
      bar.setTotal(Math.max(total, done, 1));
      bar.update(done);
    },
    stop() {
      if (started) bar.stop();
    },
  };
}
