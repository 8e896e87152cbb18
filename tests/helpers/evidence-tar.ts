// Builds, reads and rewrites evidence archives (.tar) for tests: hand-made hostile archives, and
// tampered copies of real exports, streamed so a million-entry archive never sits in memory.
import fs from "node:fs";
import { once } from "node:events";
import { pipeline } from "node:stream/promises";
import tar from "tar-stream";
import { PART_BYTES } from "@/lib/audit/archive-format";

export interface TarItem {
  name: string;
  body?: Buffer | string;
  type?: "file" | "symlink" | "link" | "directory";
  linkname?: string;
}

/** A tar of exactly these entries, in this order (names are not checked or normalised). */
export async function packTar(items: TarItem[]): Promise<Buffer> {
  const pack = tar.pack();
  const chunks: Buffer[] = [];
  pack.on("data", (c: unknown) => chunks.push(c as Buffer));
  const ended = once(pack, "end");
  for (const item of items) {
    const body = item.body === undefined ? undefined : Buffer.from(item.body);
    await new Promise<void>((resolve, reject) => {
      const header = {
        name: item.name,
        type: item.type ?? "file",
        linkname: item.linkname,
        size: body?.length ?? 0,
        mode: 0o644,
        mtime: new Date(0),
      };
      const done = (err?: Error | null) => (err ? reject(err) : resolve());
      if (body) pack.entry(header, body, done);
      else pack.entry(header, done);
    });
  }
  pack.finalize();
  await ended;
  return Buffer.concat(chunks);
}

/** Every entry of a small tar, in order. */
export async function readTar(source: Buffer | string): Promise<{ name: string; body: Buffer }[]> {
  const extract = tar.extract();
  const out: { name: string; body: Buffer }[] = [];
  if (typeof source === "string") fs.createReadStream(source).pipe(extract);
  else extract.end(source);
  for await (const entry of extract as unknown as AsyncIterable<AsyncIterable<Buffer> & { header: { name: string } }>) {
    const parts: Buffer[] = [];
    for await (const c of entry) parts.push(c);
    out.push({ name: entry.header.name, body: Buffer.concat(parts) });
  }
  return out;
}

export type LineEdit = (lineNo: number, line: string, next: () => string | undefined) => string[];

/**
 * Copies an archive, editing its data lines (across parts, with one line of look-ahead) and,
 * optionally, its last three entries. The data is re-split into parts of whole lines.
 */
export async function retar(
  src: string,
  dst: string,
  edit: { line?: LineEdit; tail?: (name: string, body: Buffer) => Buffer | null } = {},
): Promise<void> {
  const extract = tar.extract();
  const pack = tar.pack();
  const writing = pipeline(pack, fs.createWriteStream(dst));
  fs.createReadStream(src).pipe(extract);
  const put = (name: string, body: Buffer) =>
    new Promise<void>((resolve, reject) =>
      pack.entry({ name, size: body.length, mode: 0o644, mtime: new Date(0) }, body, (err) => (err ? reject(err) : resolve())),
    );
  let partName = "";
  let partNo = 0;
  let out = "";
  let carry = "";
  let lineNo = 0;
  const lines: string[] = [];
  const flushLines = async (final: boolean) => {
    // Process all complete lines, keeping the last one as look-ahead unless final.
    while (lines.length > (final ? 0 : 1)) {
      const line = lines.shift()!;
      lineNo++;
      let consumed = false;
      const next = () => {
        consumed = true;
        return lines[0];
      };
      const result = edit.line ? edit.line(lineNo, line, next) : [line];
      if (consumed && lines.length) {
        lines.shift();
        lineNo++;
      }
      for (const l of result) out += l + "\n";
      if (out.length >= PART_BYTES) {
        await put(`${partName}.${String(++partNo).padStart(6, "0")}`, Buffer.from(out));
        out = "";
      }
    }
  };
  for await (const entry of extract as unknown as AsyncIterable<AsyncIterable<Buffer> & { header: { name: string } }>) {
    const name = entry.header.name;
    const m = /^(audit\.(?:ndjson|csv))\.\d{6}$/.exec(name);
    if (m) {
      partName = m[1]!;
      for await (const chunk of entry) {
        const text = carry + chunk.toString("utf8");
        const split = text.split("\n");
        carry = split.pop()!;
        lines.push(...split);
        await flushLines(false);
      }
      continue;
    }
    if (partName) {
      await flushLines(true);
      if (out.length || partNo === 0) await put(`${partName}.${String(++partNo).padStart(6, "0")}`, Buffer.from(out));
      out = "";
      partName = "";
    }
    const parts: Buffer[] = [];
    for await (const c of entry) parts.push(c);
    const body = edit.tail ? edit.tail(name, Buffer.concat(parts)) : Buffer.concat(parts);
    if (body) await put(name, body);
  }
  pack.finalize();
  await writing;
}
