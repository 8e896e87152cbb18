import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, origins } from "@/db/schema";
import { addOrigin, addOriginInput, disableOrigin, OriginError } from "@/lib/policy/origins";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;
beforeAll(async () => {
  t = await createTestStore();
});
afterAll(async () => {
  await t.dispose();
});

const add = (uris: string, acceptWarnings = false) =>
  addOrigin(t.store.db, "op-admin-0001", addOriginInput.parse({ redirectUris: uris, acceptWarnings }));

describe("origin allowlist", () => {
  it("adds an HTTPS origin with exact redirect URIs, audited", async () => {
    expect(await add("https://connect.example.com/connect/callback")).toEqual({
      origin: "https://connect.example.com",
      redirectUris: ["https://connect.example.com/connect/callback"],
    });
    const audited = await t.store.db.select().from(auditLog).where(eq(auditLog.action, "origin.added"));
    expect(audited).toHaveLength(1);
  });

  it.each([
    ["plain HTTP", "http://connect.example.com/cb", /plain HTTP is allowed only for loopback/],
    ["a wildcard", "https://*.example.com/cb", /wildcards/],
    ["userinfo", "https://u:p@example.com/cb", /credentials in the URL/],
    ["two origins at once", "https://a.example.com/cb https://b.example.com/cb", /one origin/],
    ["a punycode host without accepting the warning", "https://xn--pple-43d.com/cb", /accept the warnings/],
  ])("refuses %s", async (_n, uris, message) => {
    await expect(add(uris)).rejects.toThrow(OriginError);
    await expect(add(uris)).rejects.toThrow(message);
  });

  it("adds a warned host only when the warning is accepted, and removes it again", async () => {
    await expect(add("https://xn--pple-43d.com/cb", true)).resolves.toMatchObject({ origin: "https://xn--pple-43d.com" });
    await disableOrigin(t.store.db, "op-admin-0001", "https://xn--pple-43d.com");
    const [row] = await t.store.db.select().from(origins).where(eq(origins.origin, "https://xn--pple-43d.com"));
    expect(row!.disabledAt).toBeInstanceOf(Date);
    await expect(disableOrigin(t.store.db, "op-admin-0001", "https://xn--pple-43d.com")).rejects.toThrow(OriginError);
  });
});
