import path from "node:path";
import { defineConfig } from "vitest/config";

const root = import.meta.dirname;

// Three layers: unit (pure rules), integration (lib/ against a real store: PostgreSQL when
// DATABASE_URL is set, embedded PGlite otherwise) and e2e (Chromium against the built app).
export default defineConfig({
  resolve: { alias: { "@": root } },
  test: {
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
