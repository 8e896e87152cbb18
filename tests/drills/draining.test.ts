// Drill: health, readiness and draining. A production-build instance answers /healthz and /readyz
// (value-free); on SIGTERM readiness fails at once, a new MCP session is refused with a retryable
// 503, and a tools/call already waiting for a person's answer is allowed to finish before the
// process exits: its record ends completed, nothing is left in flight.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { elicitationRecords } from "@/db/schema";
import { tokenMinter } from "../../bench/load";
import { connectClient } from "../helpers/mcp-client";
import { useInstance } from "./drill-env";

const deployment = useInstance({ DRAIN_GRACE_SECONDS: "30" });

describe("drill: health and draining", () => {
  it("reports health, then drains on SIGTERM without losing the call in flight", async () => {
    const { dep, app } = deployment();
    const health = await fetch(`${app.baseUrl}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: "ok" });
    const ready = await fetch(`${app.baseUrl}/readyz`);
    expect(await ready.json()).toEqual({ status: "ready" });
    expect(ready.status).toBe(200);

    const mint = tokenMinter(dep.dataDir, app.baseUrl, dep.secrets);
    // The form is answered only when the test says so: the call stays in flight until then.
    let answer: (() => void) | undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const client = await connectClient(`${app.baseUrl}/api/mcp`, await mint("user-alice-1001"), {
      name: "drill-drain",
      capabilities: { elicitation: { form: {} } },
      answer: async () => {
        await answered;
        return { action: "accept", content: { environment: "staging", format: "pdf" } };
      },
    });
    const call = client.call("generate_report");
    await expect.poll(() => client.received.length, { timeout: 20_000 }).toBe(1);

    const exited = new Promise<number | null>((resolve) => app.child.once("exit", (code) => resolve(code)));
    app.child.kill("SIGTERM");
    await expect.poll(async () => (await fetch(`${app.baseUrl}/readyz`)).status, { timeout: 5_000 }).toBe(503);
    expect(await (await fetch(`${app.baseUrl}/readyz`)).json()).toEqual({ status: "not_ready", failing: ["not_draining"] });

    // A new session is refused, clearly and retryably.
    const fresh = await fetch(`${app.baseUrl}/api/mcp`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${await mint("user-bob-1002")}`,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "late", version: "1" } },
      }),
    });
    expect(fresh.status).toBe(503);
    expect(fresh.headers.get("retry-after")).toBe("1");
    expect(((await fresh.json()) as { error: { message: string } }).error.message).toMatch(/shutting down: retry/);

    // The person answers during the grace period; the call completes, then the process exits.
    answer!();
    const result = await call;
    expect(result.structured).toMatchObject({ outcome: "completed" });
    expect(await exited).toBe(0);

    const store = await dep.open();
    try {
      const rows = await store.db.select().from(elicitationRecords).where(eq(elicitationRecords.subject, "user-alice-1001"));
      expect(rows.map((r) => r.state)).toEqual(["completed"]);
    } finally {
      await store.close();
    }
  });
});
