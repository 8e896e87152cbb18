// The documented clients of each client profile: real MCP client names and versions as they appear
// in `clientInfo`, with the elicitation capability each declares (MCP-ELICITATION.md, "What
// clients actually support"). The gates replay them for a flow nobody used yet
// (client-variants.ts); the demo draws its synthetic sessions from the same list (lib/demo/clients.ts).
export interface ProfileClient {
  name: string;
  version: string;
  capabilities: { elicitation?: Record<string, unknown> };
  /** The client profile its (verified) OAuth client id maps to. */
  profile: string;
}

export const PROFILE_CLIENTS: readonly ProfileClient[] = [
  { name: "Visual Studio Code", version: "1.106.2", capabilities: { elicitation: { form: {}, url: {} } }, profile: "visual-studio-code" },
  { name: "Visual Studio Code", version: "1.105.1", capabilities: { elicitation: { form: {}, url: {} } }, profile: "visual-studio-code" },
  { name: "claude-code", version: "2.0.37", capabilities: { elicitation: {} }, profile: "claude-code" },
  { name: "cursor-vscode", version: "2.0.64", capabilities: { elicitation: {} }, profile: "cursor" },
  { name: "mcp-inspector", version: "0.17.2", capabilities: { elicitation: { form: {}, url: {} } }, profile: "mcp-inspector" },
  { name: "codex-mcp-client", version: "0.58.0", capabilities: { elicitation: {} }, profile: "codex" },
  { name: "JetBrains AI Assistant", version: "253.28294", capabilities: { elicitation: { form: {} } }, profile: "jetbrains" },
  { name: "claude-ai", version: "0.1.0", capabilities: {}, profile: "claude-desktop" },
];
