// MCP_CONFORMANCE_FIXTURES=true serves the conformance suite's fixture tools next to the real
// workflows, for `npm run conformance` only. Never in production: the setting is refused there.
import type { Env } from "@/db/config";
import { isProduction } from "@/lib/config/app-env";

export function conformanceFixturesEnabled(env: Env = process.env): boolean {
  const raw = env.MCP_CONFORMANCE_FIXTURES?.trim();
  if (raw === undefined || raw === "" || raw === "false") return false;
  if (raw !== "true") throw new Error("MCP_CONFORMANCE_FIXTURES must be true or false");
  if (isProduction(env)) throw new Error("MCP_CONFORMANCE_FIXTURES is refused with APP_ENV=production: the fixture tools are for the conformance suite only");
  return true;
}
