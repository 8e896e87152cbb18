// The effective configuration as an operator may see it (`ctl config check`): every setting with
// where its value came from, secrets masked, plus every problem and the warnings that are not
// fatal (a variable that looks like one of ours but is not in the table: a typo, or a retired name).
import fs from "node:fs";
import { rawSetting } from "@/db/config-settings";
import { type ConfigProblem, type Env, parseConfig, shownValue } from "./schema";
import { RETIRED, SETTINGS, type SettingName, type SettingSpec } from "./settings";

export interface EffectiveSetting {
  name: SettingName;
  /** What is printed: the value (masked when secret) or the default. */
  shown: string;
  source: "environment" | "default";
}

export interface ConfigReport {
  settings: EffectiveSetting[];
  problems: ConfigProblem[];
  warnings: string[];
}

// Prefixes of the variables this app owns; another variable with one of them is probably a typo.
const OWN_PREFIXES = [
  "APP_",
  "AUDIT_",
  "CONNECT_",
  "CTL_",
  "DATABASE_",
  "DEV_IDP_",
  "DRAIN_",
  "ELICITATION_",
  "FLOW_",
  "MCP_",
  "OIDC_",
  "RATE_LIMIT_",
  "SESSION_",
  "VAULT_",
];
// Read by the test suites only (README, "Test-run settings"), not by the app.
const TEST_RUN_VARIABLES = new Set(["AUDIT_EXPORT_ENTRIES", "DRILL_PG_RESTART_CMD", "CHROMIUM_PATH"]);

function defaultShown(spec: SettingSpec<unknown>): string {
  if (spec.defaultText !== undefined) return `default: ${spec.defaultText}`;
  return `default: ${typeof spec.default === "string" ? spec.default : JSON.stringify(spec.default)}`;
}

export function configReport(env: Env): ConfigReport {
  const { problems } = parseConfig(env);
  const settings = (Object.keys(SETTINGS) as SettingName[]).map((name): EffectiveSetting => {
    const spec = SETTINGS[name] as SettingSpec<unknown>;
    const raw = rawSetting(env, name, spec);
    return raw === undefined
      ? { name, shown: defaultShown(spec), source: "default" }
      : { name, shown: shownValue(name, raw), source: "environment" };
  });
  // A key file that cannot be read would stop the first evidence export, not the start: say it now.
  const keyFile = rawSetting(env, "AUDIT_SIGNING_KEY_FILE");
  if (keyFile !== undefined && !problems.some((p) => p.variable === "AUDIT_SIGNING_KEY_FILE")) {
    try {
      fs.accessSync(keyFile, fs.constants.R_OK);
    } catch {
      problems.push({
        variable: "AUDIT_SIGNING_KEY_FILE",
        message: `AUDIT_SIGNING_KEY_FILE names a file this process cannot read (got ${shownValue("AUDIT_SIGNING_KEY_FILE", keyFile)})`,
      });
    }
  }
  const known = new Set<string>([...Object.keys(SETTINGS), ...Object.keys(RETIRED), ...TEST_RUN_VARIABLES]);
  const warnings = Object.keys(env)
    .filter((name) => !known.has(name) && OWN_PREFIXES.some((p) => name.startsWith(p)))
    .sort()
    .map((name) => `${name} is set but is not a setting of this app (a typo?); it is ignored`);
  return { settings, problems, warnings };
}
