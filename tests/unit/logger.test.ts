import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { createLogger } from "@/lib/log/logger";

describe("logger redaction", () => {
  it("censors value-bearing fields at any listed depth", () => {
    const lines: string[] = [];
    const sink = new Writable({ write: (chunk, _enc, done) => (lines.push(String(chunk)), done()) });
    const log = createLogger(sink);
    const canary = "CANARY-7f3a9c";
    log.info(
      {
        field: "environment",
        value: canary,
        nested: { token: canary, deeper: { password: canary } },
        req: { headers: { authorization: `Bearer ${canary}` } },
      },
      "answer received",
    );
    log.flush();
    const out = lines.join("");
    expect(out).toContain('"field":"environment"');
    expect(out).not.toContain(canary);
  });
});
