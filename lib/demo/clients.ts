// Real MCP client names and versions as they appear in `clientInfo`, with the elicitation
// capability each declares (see MCP-ELICITATION.md, "What clients actually support"). Used only to
// make demo history realistic; the engine always trusts the session's own initialize.
export interface DemoClient {
  name: string;
  version: string;
  capabilities: Record<string, unknown>;
  weight: number;
}

export const DEMO_CLIENTS: readonly DemoClient[] = [
  { name: "Visual Studio Code", version: "1.106.2", capabilities: { elicitation: { form: {}, url: {} } }, weight: 30 },
  { name: "Visual Studio Code", version: "1.105.1", capabilities: { elicitation: { form: {}, url: {} } }, weight: 8 },
  { name: "claude-code", version: "2.0.37", capabilities: { elicitation: {} }, weight: 22 },
  { name: "cursor-vscode", version: "2.0.64", capabilities: { elicitation: {} }, weight: 14 },
  { name: "mcp-inspector", version: "0.17.2", capabilities: { elicitation: { form: {}, url: {} } }, weight: 6 },
  { name: "codex-mcp-client", version: "0.58.0", capabilities: { elicitation: {} }, weight: 10 },
  { name: "JetBrains AI Assistant", version: "253.28294", capabilities: { elicitation: { form: {} } }, weight: 6 },
  { name: "claude-ai", version: "0.1.0", capabilities: {}, weight: 4 },
];
