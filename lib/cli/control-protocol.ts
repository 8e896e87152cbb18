import path from "node:path";

// Commands that may run inside the app server on behalf of a local CLI: the break-glass and
// evidence commands an operator needs while the demo holds the embedded store.
export const CONTROL_COMMANDS = new Set(["kill-switch", "approvals", "audit", "revoke", "gates", "flows", "client-profiles"]);

export interface ControlReply {
  code: number;
  out: string;
  err: string;
}

export function controlFile(pgliteDir: string): string {
  return path.join(pgliteDir, "control.json");
}
