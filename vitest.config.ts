import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

// Five layers: unit (pure rules), integration (lib/ against a real store: PostgreSQL when
// DATABASE_URL is set, embedded PGlite otherwise), e2e (Chromium against the built app),
// conformance (the official MCP conformance suite against the built app) and drills (fault drills
// against production-build deployments of their own).
export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
    // expect.poll waits for something that will happen (a server action's result, a record's
    // state): on a busy 2-core machine that can take seconds, so wait long enough that only a
    // real failure, never load, ends the wait.
    expect: { poll: { timeout: 15_000, interval: 100 } },
    projects: [
      { extends: true, test: { name: "unit", include: ["tests/unit/**/*.test.ts"], environment: "node" } },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["tests/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 300_000,
          hookTimeout: 300_000,
          pool: "forks",
        },
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["tests/e2e/**/*.test.ts"],
          environment: "node",
          globalSetup: [path.join(root, "tests/e2e/global-setup.ts")],
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          // The official MCP conformance suite (Node 22 and the suite installed into .cache/).
          name: "conformance",
          include: ["tests/conformance/**/*.test.ts"],
          environment: "node",
          testTimeout: 900_000,
          hookTimeout: 300_000,
          pool: "forks",
        },
      },
      {
        extends: true,
        test: {
          // Fault drills against production-build deployments of their own (tests/drills).
          name: "drills",
          include: ["tests/drills/**/*.test.ts"],
          environment: "node",
          testTimeout: 240_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
