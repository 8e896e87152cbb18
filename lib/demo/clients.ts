// The documented clients (lib/gates/profile-clients.ts) with how common each is, used only to make
// demo history realistic; the engine always trusts the session's own initialize.
//
// Governance never reads those names: a flow's profile comes from the access token's verified
// client id. In the demo each client software has its own OAuth client id (registered statically
// at the development provider, lib/auth/dev-idp/provider.ts) mapped to a profile of the same name.
import { PROFILE_CLIENTS } from "@/lib/gates/profile-clients";

export interface DemoClient {
  name: string;
  version: string;
  capabilities: Record<string, unknown>;
  weight: number;
  /** The client profile its (verified) OAuth client id maps to. */
  profile: string;
}

export interface DemoClientProfile {
  clientId: string;
  profileId: string;
  displayName: string;
}

// `ctl` is the development provider's own client (`ctl token`): tokens minted there land in the
// `ctl` profile, whose flows the demo seeds as promoted so a quick manual test just works.
export const DEMO_CLIENT_PROFILES: readonly DemoClientProfile[] = [
  { clientId: "claude-code", profileId: "claude-code", displayName: "Claude Code" },
  { clientId: "visual-studio-code", profileId: "visual-studio-code", displayName: "Visual Studio Code" },
  { clientId: "cursor", profileId: "cursor", displayName: "Cursor" },
  { clientId: "mcp-inspector", profileId: "mcp-inspector", displayName: "MCP Inspector" },
  { clientId: "codex", profileId: "codex", displayName: "Codex" },
  { clientId: "jetbrains", profileId: "jetbrains", displayName: "JetBrains AI Assistant" },
  { clientId: "claude-desktop", profileId: "claude-desktop", displayName: "Claude Desktop" },
  { clientId: "ctl", profileId: "ctl", displayName: "ctl token (development)" },
];

// How often each documented client (lib/gates/profile-clients.ts, in its order) shows up in the
// synthetic history.
const WEIGHTS = [30, 8, 22, 14, 6, 10, 6, 4];

export const DEMO_CLIENTS: readonly DemoClient[] = PROFILE_CLIENTS.map((c, i) => ({ ...c, weight: WEIGHTS[i] ?? 1 }));
