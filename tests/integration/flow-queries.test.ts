import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flows } from "@/db/schema";
import { parseSearchParams } from "@/lib/http/search-params";
import { flowFilterChoices, flowFilterSchema, listFlows } from "@/lib/policy/flow-queries";
import { createTestStore, type TestStore } from "../helpers/test-store";

let t: TestStore;

const FLOWS = [
  ["generate_report", "claude-code", "promoted"],
  ["generate_report", "cursor", "canary"],
  ["purge_report_cache", "claude-code", "canary"],
  ["purge_report_cache", "cursor", "rolled_back"],
  ["list_repositories", "unregistered", "off"],
] as const;

beforeAll(async () => {
  t = await createTestStore();
  await t.store.db.insert(flows).values(
    FLOWS.map(([workflow, profileId, stage]) => ({
      id: `${workflow}:${profileId}`,
      workflow,
      profileId,
      serverVersion: "0.1.0",
      stage,
      canaryPercent: stage === "canary" ? 20 : 0,
      fingerprint: "fp",
      fingerprintInputs: {},
      retestRequired: false,
    })),
  );
});
afterAll(async () => {
  await t.dispose();
});

const ids = (rows: { id: string }[]) => rows.map((r) => r.id);

describe("flows page filters on the server", () => {
  it("lists every flow by workflow then profile without a filter", async () => {
    expect(ids(await listFlows(t.store.db, {}))).toEqual([
      "generate_report:claude-code",
      "generate_report:cursor",
      "list_repositories:unregistered",
      "purge_report_cache:claude-code",
      "purge_report_cache:cursor",
    ]);
  });

  it("filters by stage, workflow and client profile, alone and together", async () => {
    expect(ids(await listFlows(t.store.db, { stage: "canary" }))).toEqual(["generate_report:cursor", "purge_report_cache:claude-code"]);
    expect(ids(await listFlows(t.store.db, { workflow: "purge_report_cache" }))).toEqual([
      "purge_report_cache:claude-code",
      "purge_report_cache:cursor",
    ]);
    expect(ids(await listFlows(t.store.db, { client: "cursor" }))).toEqual(["generate_report:cursor", "purge_report_cache:cursor"]);
    expect(ids(await listFlows(t.store.db, { stage: "canary", client: "claude-code" }))).toEqual(["purge_report_cache:claude-code"]);
    expect(await listFlows(t.store.db, { workflow: "generate_report", stage: "off" })).toEqual([]);
  });

  it("offers the workflows and profiles that have a flow", async () => {
    expect(await flowFilterChoices(t.store.db)).toEqual({
      workflows: ["generate_report", "list_repositories", "purge_report_cache"],
      clients: ["claude-code", "cursor", "unregistered"],
    });
  });

  it("a URL's refused values never reach the query; the valid ones still filter", async () => {
    const parsed = parseSearchParams(flowFilterSchema, { stage: "bogus", workflow: "purge_report_cache", client: "Cursor Desktop" });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) throw new Error("unreachable");
    expect(Object.keys(parsed.fieldErrors).sort()).toEqual(["client", "stage"]);
    expect(parsed.data).toEqual({ workflow: "purge_report_cache" });
    expect(ids(await listFlows(t.store.db, parsed.data))).toEqual(["purge_report_cache:claude-code", "purge_report_cache:cursor"]);
  });
});
