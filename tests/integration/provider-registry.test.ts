// Demo code only where the demo starts it (issue 16, item 4): a grant flow's fingerprint names the
// registered issuer of the provider its workflow names, not a fixed demo issuer, and the connect
// registry reads every provider's secret and resource from its row, the demo's included (written by
// the seed, refreshed at each demo start), with no special case for the development provider.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { flows, providers } from "@/db/schema";
import { requiredSecret } from "@/lib/config/secrets";
import { providerInfo, providerIssuers, RegistryError } from "@/lib/connect/registry";
import { demoDownstreamIssuer, DEMO_PROVIDER_ID, refreshDemoProvider } from "@/lib/demo/provider";
import { seedDemo } from "@/lib/demo/seed";
import { directPolicy } from "@/lib/policy/policy-source";
import { resolveFlow } from "@/lib/policy/resolve-flow";
import { flowIdFor } from "@/lib/policy/profile-id";
import { generateReport } from "@/lib/workflows/generate-report";
import { listRepositories } from "@/lib/workflows/list-repositories";
import { createTestStore, type TestStore } from "../helpers/test-store";

const BASE = "http://localhost:4777";
let t: TestStore;

beforeAll(async () => {
  t = await createTestStore();
  await seedDemo(t.store.db, { records: 0, appUrl: BASE });
});
afterAll(async () => t?.dispose());

// The `ctl` client id maps to the seeded `ctl` profile, whose flows the seed promotes.
const ctx = () => ({ db: t.store.db, policy: directPolicy(t.store.db), clientId: "ctl", issuer: `${BASE}/oidc` });
const storedFlow = async (workflow: string) =>
  (
    await t.store.db
      .select()
      .from(flows)
      .where(eq(flows.id, flowIdFor(workflow, "ctl")))
  )[0]!;

describe("grant fingerprints come from the provider registry", () => {
  it("the seeded demo flow keeps its fingerprint on its first call: the registry holds the issuer the seed fingerprinted", async () => {
    const seeded = await storedFlow("list_repositories");
    const flow = await resolveFlow(ctx(), listRepositories);
    expect(flow.fingerprint).toBe(seeded.fingerprint);
    expect(flow.fingerprintInputs.downstream).toEqual([demoDownstreamIssuer(BASE)]);
    expect(flow.retestRequired).toBe(false);
  });

  it("a workflow without a grant names no downstream issuer", async () => {
    const flow = await resolveFlow(ctx(), generateReport);
    expect(flow.fingerprintInputs.downstream).toEqual([]);
  });

  it("a provider moved to another issuer changes the grant flow's fingerprint and requires a retest", async () => {
    const before = await storedFlow("list_repositories");
    await t.store.db.update(providers).set({ issuer: "https://git.example.com" }).where(eq(providers.id, DEMO_PROVIDER_ID));
    const flow = await resolveFlow(ctx(), listRepositories);
    expect(flow.fingerprintInputs.downstream).toEqual(["https://git.example.com"]);
    expect(flow.fingerprint).not.toBe(before.fingerprint);
    expect((await storedFlow("list_repositories")).retestRequired).toBe(true);
    await t.store.db
      .update(providers)
      .set({ issuer: demoDownstreamIssuer(BASE) })
      .where(eq(providers.id, DEMO_PROVIDER_ID));
  });

  it("a disabled or unknown provider is named as unregistered, never as a guessed issuer", async () => {
    expect(await providerIssuers(t.store.db, ["no-such-provider", DEMO_PROVIDER_ID])).toEqual([
      "unregistered:no-such-provider",
      demoDownstreamIssuer(BASE),
    ]);
    await t.store.db.update(providers).set({ disabledAt: new Date() }).where(eq(providers.id, DEMO_PROVIDER_ID));
    try {
      const flow = await resolveFlow(ctx(), listRepositories);
      expect(flow.fingerprintInputs.downstream).toEqual([`unregistered:${DEMO_PROVIDER_ID}`]);
    } finally {
      await t.store.db.update(providers).set({ disabledAt: null }).where(eq(providers.id, DEMO_PROVIDER_ID));
    }
  });

  it("odd provider ids (prototype keys, empty) look nothing up and name themselves", async () => {
    expect(await providerIssuers(t.store.db, [])).toEqual([]);
    expect(await providerIssuers(t.store.db, ["__proto__", "constructor"])).toEqual(["unregistered:__proto__", "unregistered:constructor"]);
  });
});

describe("the demo provider is a registry row like any other", () => {
  it("its secret is sealed in the row (never in clear) and opens to the configured development secret, with its resource", async () => {
    const [row] = await t.store.db.select().from(providers).where(eq(providers.id, DEMO_PROVIDER_ID));
    const secret = requiredSecret("demoDownstreamClient");
    expect(row!.clientSecretSealed).not.toBeNull();
    expect(row!.clientSecretSealed!.includes(Buffer.from(secret))).toBe(false);
    const info = await providerInfo(t.store.db, DEMO_PROVIDER_ID);
    expect(info).toMatchObject({ issuer: demoDownstreamIssuer(BASE), clientSecret: secret, resource: `${demoDownstreamIssuer(BASE)}/api` });
  });

  it("a provider without a sealed secret is refused, even at the development provider's issuer", async () => {
    await t.store.db.insert(providers).values({
      id: "bare",
      displayName: "Bare",
      issuer: demoDownstreamIssuer(BASE),
      clientId: "x",
      clientSecretSealed: null,
      scopes: ["openid"],
    });
    await expect(providerInfo(t.store.db, "bare")).rejects.toThrow(RegistryError);
    await expect(providerInfo(t.store.db, "bare")).rejects.toThrow(/has no client secret/);
  });

  it("a demo start rewrites the demo row for this APP_URL, and only that row", async () => {
    const other = "http://127.0.0.1:4888";
    expect(await refreshDemoProvider(t.store.db, other)).toBe(true);
    const info = await providerInfo(t.store.db, DEMO_PROVIDER_ID);
    expect(info).toMatchObject({
      issuer: demoDownstreamIssuer(other),
      resource: `${demoDownstreamIssuer(other)}/api`,
      clientSecret: requiredSecret("demoDownstreamClient"),
    });
    const [bare] = await t.store.db.select().from(providers).where(eq(providers.id, "bare"));
    expect(bare!.clientSecretSealed).toBeNull();
    await refreshDemoProvider(t.store.db, BASE);
  });

  it("a demo start on a store without the demo provider creates nothing", async () => {
    const empty = await createTestStore();
    try {
      expect(await refreshDemoProvider(empty.store.db, BASE)).toBe(false);
      expect(await empty.store.db.select().from(providers)).toEqual([]);
    } finally {
      await empty.dispose();
    }
  });
});
