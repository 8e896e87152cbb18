// MCP_CONFORMANCE_FIXTURES=true serves the conformance suite's fixture tools next to the real
// workflows, for `npm run conformance` only. Never in production: the setting is refused there.
import { type Env, readSetting } from "@/lib/config/schema";
import { isProduction } from "@/lib/config/app-env";

export function conformanceFixturesEnabled(env: Env = process.env): boolean {
  if (readSetting(env, "MCP_CONFORMANCE_FIXTURES") !== true) return false;
  if (isProduction(env))
    throw new Error("MCP_CONFORMANCE_FIXTURES is refused with APP_ENV=production: the fixture tools are for the conformance suite only");
  return true;
}
