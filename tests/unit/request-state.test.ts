import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  argumentsHash,
  MAX_REQUEST_STATE_LENGTH,
  openRequestState,
  RequestStateTooLargeError,
  sealRequestState,
  type RequestStateClaims,
} from "@/lib/mcp/request-state";
import { requestStateKey } from "@/lib/mcp/request-state-key";

const key = randomBytes(32);
const claims: RequestStateClaims = {
  subject: "user-alice-1001",
  tenant: "acme",
  clientId: "claude-code",
  tool: "generate_report",
  argsHash: argumentsHash({}),
  recordId: "a".repeat(32),
  needKey: "report_parameters",
  kind: "form",
  expiresAt: Date.now() + 60_000,
};
const expect0 = { subject: claims.subject, tenant: claims.tenant, clientId: claims.clientId, tool: claims.tool, argsHash: claims.argsHash };

describe("sealed requestState", () => {
  it("round-trips for its owner and reads as nothing outside", () => {
    const s = sealRequestState(key, claims);
    expect(openRequestState(key, s, expect0)).toEqual({ ok: true, claims });
    const bytes = Buffer.from(s.slice(3), "base64url").toString("latin1");
    for (const v of [claims.subject, claims.tenant, claims.tool, claims.recordId, claims.needKey]) expect(bytes).not.toContain(v);
    // Two seals of the same claims differ (fresh IV), so states cannot be correlated.
    expect(sealRequestState(key, claims)).not.toBe(s);
  });

  it.each([
    ["another subject", { ...expect0, subject: "user-mallory-2001" }, "other_user"],
    ["another tenant", { ...expect0, tenant: "globex" }, "other_tenant"],
    ["the same person through another OAuth client", { ...expect0, clientId: "ctl" }, "other_client"],
    ["a token that named no client", { ...expect0, clientId: "" }, "other_client"],
    ["another tool", { ...expect0, tool: "purge_report_cache" }, "other_tool"],
    ["other arguments", { ...expect0, argsHash: argumentsHash({ environment: "production" }) }, "other_arguments"],
  ])("refuses %s", (_n, expectation, reason) => {
    expect(openRequestState(key, sealRequestState(key, claims), expectation)).toMatchObject({ ok: false, reason });
  });

  it("refuses an expired state (and names its record only then, for closing it)", () => {
    const s = sealRequestState(key, { ...claims, expiresAt: Date.now() - 1 });
    expect(openRequestState(key, s, expect0)).toMatchObject({ ok: false, reason: "expired", claims: { recordId: claims.recordId } });
    // Another user's expired state says "other_user" and gives away nothing.
    expect(openRequestState(key, s, { ...expect0, subject: "x" })).toEqual({ ok: false, reason: "other_user" });
  });

  it("refuses every encoding but the one it issued (unused low bits of the last character, padding)", () => {
    // Seal until the encoded blob's length mod 4 is 3: its last character then carries 2 unused bits.
    let s = sealRequestState(key, claims);
    for (let extra = "x"; (s.length - 3) % 4 !== 3; extra += "x") s = sealRequestState(key, { ...claims, needKey: extra });
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
    const last = alphabet.indexOf(s.at(-1)!);
    expect(last % 4).toBe(0);
    // The issued string itself opens.
    expect(openRequestState(key, s, expect0)).toMatchObject({ ok: true });
    for (const low of [1, 2, 3]) {
      const variant = s.slice(0, -1) + alphabet[last + low]!;
      // Decodes to the very same bytes, yet is not the string this server issued.
      expect(Buffer.from(variant.slice(3), "base64url")).toEqual(Buffer.from(s.slice(3), "base64url"));
      expect(openRequestState(key, variant, expect0)).toEqual({ ok: false, reason: "malformed" });
    }
    expect(openRequestState(key, `${s}=`, expect0)).toEqual({ ok: false, reason: "malformed" });
  });

  it("refuses every altered byte, another key, and garbage", () => {
    const s = sealRequestState(key, claims);
    const blob = Buffer.from(s.slice(3), "base64url");
    for (let i = 0; i < blob.length; i++) {
      const b = Buffer.from(blob);
      b[i] = b[i]! ^ 1;
      expect(openRequestState(key, `v1.${b.toString("base64url")}`, expect0)).toMatchObject({ ok: false, reason: "altered" });
    }
    expect(openRequestState(randomBytes(32), s, expect0)).toMatchObject({ ok: false, reason: "altered" });
    for (const bad of [
      "",
      "v1.",
      "v1.***",
      "v2." + s.slice(3),
      s.slice(0, 20),
      "v1." + "A".repeat(MAX_REQUEST_STATE_LENGTH),
      "__proto__",
    ]) {
      expect(openRequestState(key, bad, expect0)).toMatchObject({ ok: false, reason: "malformed" });
    }
  });

  it("carries earlier answers sealed: back intact for its owner, unreadable outside, never issued oversized", () => {
    const carried = [{ needKey: "step1", recordId: "b".repeat(32), content: { name: "canary-carried-7f3e", n: 3, tags: ["a"] } }];
    const s = sealRequestState(key, { ...claims, carried });
    expect(openRequestState(key, s, expect0)).toEqual({ ok: true, claims: { ...claims, carried } });
    expect(Buffer.from(s.slice(3), "base64url").toString("latin1")).not.toContain("canary-carried-7f3e");
    expect(s).not.toContain("canary-carried-7f3e");
    const huge = [{ needKey: "step1", recordId: "b".repeat(32), content: { text: "x".repeat(MAX_REQUEST_STATE_LENGTH) } }];
    expect(() => sealRequestState(key, { ...claims, carried: huge })).toThrow(RequestStateTooLargeError);
  });

  it("binds arguments canonically: key order does not matter, values do", () => {
    expect(argumentsHash({ a: 1, b: 2 })).toBe(argumentsHash({ b: 2, a: 1 }));
    expect(argumentsHash({ a: 1 })).not.toBe(argumentsHash({ a: 2 }));
    expect(argumentsHash(undefined)).toBe(argumentsHash({}));
  });
});

describe("MCP_REQUEST_STATE_KEY", () => {
  const dataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), "eg-rs-"));
  it("uses a configured 32-byte key", () => {
    const k = randomBytes(32);
    expect(requestStateKey({ MCP_REQUEST_STATE_KEY: k.toString("base64") }).equals(k)).toBe(true);
  });
  it.each(["c2hvcnQ=", "not base64 at all!", randomBytes(48).toString("base64")])("refuses a bad value (%s) naming the variable", (v) => {
    expect(() => requestStateKey({ MCP_REQUEST_STATE_KEY: v })).toThrow(/MCP_REQUEST_STATE_KEY/);
  });
  it("is required in production", () => {
    expect(() => requestStateKey({ APP_ENV: "production", DATA_DIR: dataDir() })).toThrow("APP_ENV=production needs MCP_REQUEST_STATE_KEY");
  });
  it("is generated once in development and stable across reads", () => {
    const env = { DATA_DIR: dataDir() };
    const a = requestStateKey(env);
    expect(a).toHaveLength(32);
    expect(requestStateKey(env).equals(a)).toBe(true);
  });
});
