// Where command output goes. Normally the process's stdout; when the app server runs a command on
// behalf of a CLI in another process (the local control channel), the output is captured and sent
// back, so the operator sees exactly what a local run would print.
import { AsyncLocalStorage } from "node:async_hooks";

const capture = new AsyncLocalStorage<{ out: string[] }>();

export function writeOut(text: string): void {
  const sink = capture.getStore();
  if (sink) sink.out.push(text);
  else process.stdout.write(text);
}

/** True inside a command run for another process (its output is captured and sent back). */
export function isCaptured(): boolean {
  return capture.getStore() !== undefined;
}

export async function captured<T>(fn: () => Promise<T>): Promise<{ result: T; out: string }> {
  const sink = { out: [] as string[] };
  const result = await capture.run(sink, fn);
  return { result, out: sink.out.join("") };
}
