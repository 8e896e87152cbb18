// Copies an evidence directory while changing its data file line by line, streaming, so tamper
// cases can run against a million-line export without loading it into memory.
import fs from "node:fs";
import path from "node:path";
import readline from "node:readline";
import { once } from "node:events";

export type LineEdit = (lineNo: number, line: string, next: () => string | undefined) => string[];

export async function copyEvidence(src: string, dst: string, dataFile: string, edit?: LineEdit): Promise<void> {
  fs.mkdirSync(dst, { recursive: true });
  fs.copyFileSync(path.join(src, "manifest.json"), path.join(dst, "manifest.json"));
  if (!edit) {
    fs.copyFileSync(path.join(src, dataFile), path.join(dst, dataFile));
    return;
  }
  const out = fs.createWriteStream(path.join(dst, dataFile));
  const lines = readline
    .createInterface({ input: fs.createReadStream(path.join(src, dataFile)), crlfDelay: Infinity })
    [Symbol.asyncIterator]();
  const read = async () => {
    const r = await lines.next();
    return r.done ? undefined : r.value;
  };
  let buffer = "";
  let lineNo = 0;
  let line = await read();
  while (line !== undefined) {
    lineNo++;
    // One line of look-ahead lets an edit consume the next line (a swap).
    const ahead = await read();
    let consumed = false;
    const next = () => {
      consumed = true;
      return ahead;
    };
    for (const l of edit(lineNo, line, next)) buffer += l + "\n";
    if (consumed) {
      lineNo++;
      line = await read();
    } else {
      line = ahead;
    }
    if (buffer.length > 1 << 20) {
      if (!out.write(buffer)) await once(out, "drain");
      buffer = "";
    }
  }
  out.end(buffer);
  await once(out, "finish");
}
