// The layer rule (app -> lib -> db; components/ without the database and with only types from
// lib/) is enforced by eslint.config.js. This lints small sources placed at paths in each layer
// with the project's real configuration, so a pattern that stops matching (a relative spelling,
// an inline `type` import) fails here instead of letting an upward import through.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const eslint = new ESLint({ cwd: root });
const RULE = "@typescript-eslint/no-restricted-imports";

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(`${code}\nexport const used = [x];\n`, { filePath: path.join(root, file) });
  return result!.messages.filter((m) => m.ruleId === RULE).map((m) => m.message);
}

describe("the layer rule", () => {
  // Loading the configuration (Next.js's plugins, the parsers) is the slow part and happens once;
  // on a loaded 2-core machine it can outlast vitest's default hook wait, so that wait is widened.
  beforeAll(async () => {
    await eslint.calculateConfigForFile(path.join(root, "components/x.tsx"));
  }, 300_000);

  it.each([
    ["app/(console)/console/x/page.tsx", 'import { flows as x } from "@/db/schema";'],
    ["app/(console)/console/x/page.tsx", 'import { flows as x } from "../../../../db/schema";'],
    ["app/api/x/route.ts", 'import { eq as x } from "drizzle-orm";'],
    ["app/api/x/route.ts", 'import { sql as x } from "drizzle-orm/sql";'],
    ["app/api/x/route.ts", 'import { createClient as x } from "@/db/client";'],
    ["app/api/x/route.ts", 'import x from "postgres";'],
    ["proxy.ts", 'import { flows as x } from "./db/schema";'],
    ["components/x.tsx", 'import { hasPermission as x } from "@/lib/auth/permissions";'],
    ["components/x.tsx", 'import { hasPermission as x } from "../lib/auth/permissions";'],
    ["components/x.tsx", 'import { getDb as x } from "@/db";'],
    ["components/x.tsx", 'import { flows as x } from "../db/schema";'],
    ["components/x.tsx", 'import { eq as x } from "drizzle-orm";'],
    ["components/x.tsx", 'import { GET as x } from "@/app/api/metrics/route";'],
    ["lib/policy/x.ts", 'import { x } from "@/app/(console)/console/flows/actions";'],
    ["lib/policy/x.ts", 'import { x } from "../../components/records-table";'],
    ["db/x.ts", 'import { x } from "@/lib/audit/actions";'],
    ["db/x.ts", 'import { x } from "../lib/audit/actions";'],
  ])("%s may not %s", async (file, code) => {
    expect(await layerErrors(file, code)).toHaveLength(1);
  });

  it.each([
    ["app/(console)/layout.tsx", 'import { getDb as x } from "@/db";'],
    ["app/(console)/console/x/page.tsx", 'import { listFlows as x } from "@/lib/policy/flows";'],
    ["app/(console)/console/x/page.tsx", 'import { ForbiddenNotice as x } from "@/components/forbidden-notice";'],
    ["components/x.tsx", 'import type { ActionResult as x } from "@/lib/auth/action-result";'],
    ["components/x.tsx", 'import { type ActionResult as x } from "../lib/auth/action-result";'],
    ["components/x.tsx", 'import { AutoRefresh as x } from "@/components/auto-refresh";'],
    ["lib/cli/commands/x.ts", 'import { parse as x } from "../args";'],
    ["lib/policy/x.ts", 'import { flows as x } from "@/db/schema";'],
  ])("%s may %s", async (file, code) => {
    expect(await layerErrors(file, code)).toEqual([]);
  });
});
