// Checks a data file (NDJSON or CSV) fed to it in chunks, in the order they arrive: from a file,
// from the parts inside an archive, from a request body. Nothing is buffered beyond one line, and a
// line may not exceed MAX_LINE_BYTES, so hostile input cannot grow memory.
import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import { parse, type Parser } from "csv-parse";
import { ChainChecker, type LineFailure } from "./chain-checker";
import { CSV_COLUMNS, type ExportFormat } from "./manifest";

export const MAX_LINE_BYTES = 1024 * 1024;

export interface DataVerifier {
  readonly checker: ChainChecker;
  /** Feeds the next bytes; returns the first failure found (and keeps returning it). */
  write(chunk: Buffer): LineFailure | undefined;
  end(): LineFailure | undefined;
  /** SHA-256 of every byte written, hex. */
  fileSha256(): string;
}

export function dataVerifier(format: ExportFormat): DataVerifier {
  return format === "csv" ? new CsvVerifier() : new NdjsonVerifier();
}

class NdjsonVerifier implements DataVerifier {
  readonly checker = new ChainChecker();
  private readonly hash = createHash("sha256");
  private rest: Buffer[] = [];
  private restBytes = 0;
  private lineNo = 0;
  private failure: LineFailure | undefined;

  write(chunk: Buffer): LineFailure | undefined {
    if (this.failure) return this.failure;
    this.hash.update(chunk);
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(10, start);
      if (nl === -1) break;
      let line = chunk.subarray(start, nl);
      if (this.restBytes > 0) {
        line = Buffer.concat([...this.rest, line]);
        this.rest = [];
        this.restBytes = 0;
      }
      start = nl + 1;
      if ((this.failure = this.line(line))) return this.failure;
    }
    if (start < chunk.length) {
      this.rest.push(chunk.subarray(start));
      this.restBytes += chunk.length - start;
      if (this.restBytes > MAX_LINE_BYTES) this.failure = this.tooLong(this.lineNo + 1);
    }
    return this.failure;
  }

  end(): LineFailure | undefined {
    if (this.failure) return this.failure;
    if (this.restBytes > 0) this.failure = this.line(Buffer.concat(this.rest));
    this.rest = [];
    return this.failure;
  }

  fileSha256(): string {
    return this.hash.copy().digest("hex");
  }

  private tooLong(line: number): LineFailure {
    return { ok: false, problem: `line ${line}: longer than ${MAX_LINE_BYTES} bytes`, line };
  }

  private line(buf: Buffer): LineFailure | undefined {
    const n = ++this.lineNo;
    if (buf.length > MAX_LINE_BYTES) return this.tooLong(n);
    if (!isUtf8(buf)) return { ok: false, problem: `line ${n}: not valid UTF-8`, line: n };
    return this.checker.checkLine(buf.toString("utf8"), n);
  }
}

type CsvItem = { record: string[]; info: { lines: number } };

// csv-parse does the CSV grammar (quoted fields may hold newlines); it is driven synchronously:
// each write is parsed at once and its records are read back before the next write.
class CsvVerifier implements DataVerifier {
  readonly checker = new ChainChecker();
  private readonly hash = createHash("sha256");
  private readonly parser: Parser = parse({ info: true, relax_column_count: true, max_record_size: MAX_LINE_BYTES });
  private header = true;
  private failure: LineFailure | undefined;
  private parseError: Error | undefined;

  constructor() {
    this.parser.on("error", (err: Error) => (this.parseError = err));
  }

  write(chunk: Buffer): LineFailure | undefined {
    if (this.failure) return this.failure;
    this.hash.update(chunk);
    this.parser.write(chunk);
    return this.drain();
  }

  end(): LineFailure | undefined {
    if (this.failure) return this.failure;
    this.parser.end();
    return this.drain();
  }

  fileSha256(): string {
    return this.hash.copy().digest("hex");
  }

  private drain(): LineFailure | undefined {
    let item: CsvItem | null;
    while (!this.failure && (item = this.parser.read() as CsvItem | null) !== null) this.failure = this.record(item);
    if (!this.failure && this.parseError) {
      const line = this.checker.count + 2;
      this.failure = { ok: false, problem: `line ${line}: not valid CSV`, line };
    }
    return this.failure;
  }

  private record({ record: r, info }: CsvItem): LineFailure | undefined {
    const lineNo = info.lines;
    if (this.header) {
      this.header = false;
      return r.join(",") === CSV_COLUMNS.join(",")
        ? undefined
        : { ok: false, problem: `line ${lineNo}: unexpected CSV header`, line: lineNo };
    }
    if (r.length !== CSV_COLUMNS.length)
      return { ok: false, problem: `line ${lineNo}: expected ${CSV_COLUMNS.length} columns`, line: lineNo };
    let detail: unknown;
    try {
      detail = JSON.parse(r[7]!);
    } catch {
      return { ok: false, problem: `line ${lineNo}: detail is not valid JSON`, line: lineNo };
    }
    const entry = {
      v: 1,
      seq: /^[1-9]\d*$/.test(r[0]!) ? Number(r[0]) : NaN,
      ts: r[1],
      actorType: r[2],
      actorId: r[3],
      action: r[4],
      targetType: r[5],
      targetId: r[6],
      detail,
      prevHash: r[8],
      hash: r[9],
    };
    return this.checker.checkEntry(entry, lineNo);
  }
}
