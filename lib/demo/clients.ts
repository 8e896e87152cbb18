// Real MCP client names and versions as they appear in `clientInfo`, with the elicitation
// capability each declared when this was written (most declare form mode only, some `{}`, few URL
// mode). Used only to make demo history realistic; the engine always trusts the session's own
// initialize.
//
// Governance never reads those names: a flow's profile comes from the access token's verified
// client id. In the demo each client software has its own OAuth client id (registered statically
// at the development provider, lib/auth/dev-idp/provider.ts) mapped to a profile of the same name.
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

export const DEMO_CLIENTS: readonly DemoClient[] = [
  { name: "Visual Studio Code", version: "1.106.2", capabilities: { elicitation: { form: {}, url: {} } }, weight: 30, profile: "visual-studio-code" },
  { name: "Visual Studio Code", version: "1.105.1", capabilities: { elicitation: { form: {}, url: {} } }, weight: 8, profile: "visual-studio-code" },
  { name: "claude-code", version: "2.0.37", capabilities: { elicitation: {} }, weight: 22, profile: "claude-code" },
  { name: "cursor-vscode", version: "2.0.64", capabilities: { elicitation: {} }, weight: 14, profile: "cursor" },
  { name: "mcp-inspector", version: "0.17.2", capabilities: { elicitation: { form: {}, url: {} } }, weight: 6, profile: "mcp-inspector" },
  { name: "codex-mcp-client", version: "0.58.0", capabilities: { elicitation: {} }, weight: 10, profile: "codex" },
  { name: "JetBrains AI Assistant", version: "253.28294", capabilities: { elicitation: { form: {} } }, weight: 6, profile: "jetbrains" },
  { name: "claude-ai", version: "0.1.0", capabilities: {}, weight: 4, profile: "claude-desktop" },
];
