// The check at start: `ctl serve` and `ctl demo` validate the whole configuration before they open
// the store, so a bad value (FLOW_NEW_STAGE=100%) stops the process with one line naming it
// instead of surfacing on the first request that reads it, or never.
import { type Env, loadConfig, type Config } from "./schema";

export function assertConfig(env: Env = process.env): Config {
  return loadConfig(env);
}
