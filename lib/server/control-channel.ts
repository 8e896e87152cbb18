// The server side of the local control channel (see lib/cli/control-client.ts). Only for the
// embedded store, only on loopback, only with the per-start secret written (0600) next to the
// store, and only for allow-listed commands, which run exactly as they would in the CLI, on the
// server's open store, with their output captured and sent back. The secret alone makes no one an
// operator: a command acts as an operator only with the ID token the CLI sent, which the command
// verifies here exactly as the CLI would (signature, issuer, audience, freshness), never with the
// server's own session file.
import { randomBytes, timingSafeEqual } from "node:crypto";
import fs from "node:fs";
import type http from "node:http";
import type { Store } from "@/db/client";
import { CONTROL_COMMANDS, controlFile, type ControlReply } from "@/lib/cli/control-protocol";
import { dispatch } from "@/lib/cli/dispatch";
import { CliError } from "@/lib/cli/errors";
import { withForwardedProof } from "@/lib/cli/operator-proof";
import { captured } from "@/lib/cli/output";
import { hostStore } from "@/lib/cli/store";

export const CONTROL_PATH = "/__ctl";
const MAX_BODY = 64 * 1024;

export function openControlChannel(
  store: Store,
  pgliteDir: string,
  baseUrl: string,
): { handle: (req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>; close(): void } {
  const token = randomBytes(32).toString("base64url");
  const file = controlFile(pgliteDir);
  fs.writeFileSync(file, JSON.stringify({ url: `${baseUrl}${CONTROL_PATH}`, token, pid: process.pid }), { mode: 0o600 });
  hostStore(store);
  const expected = Buffer.from(`Bearer ${token}`);

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<boolean> => {
    if ((req.url ?? "").split("?")[0] !== CONTROL_PATH) return false;
    const remote = req.socket.remoteAddress ?? "";
    const given = Buffer.from(req.headers.authorization ?? "");
    const loopback = remote === "127.0.0.1" || remote === "::1" || remote === "::ffff:127.0.0.1";
    if (req.method !== "POST" || !loopback || given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.writeHead(404).end();
      return true;
    }
    let body = "";
    for await (const chunk of req) {
      body += chunk;
      if (body.length > MAX_BODY) break;
    }
    let parsed: { argv?: unknown; idToken?: unknown } | undefined;
    try {
      parsed = body.length > MAX_BODY ? undefined : (JSON.parse(body) as typeof parsed);
    } catch {
      parsed = undefined;
    }
    const argv = parsed?.argv;
    const idToken = parsed?.idToken;
    if (
      !Array.isArray(argv) ||
      !argv.every((a) => typeof a === "string") ||
      !CONTROL_COMMANDS.has(argv[0] as string) ||
      (idToken !== undefined && typeof idToken !== "string")
    ) {
      res.writeHead(400).end();
      return true;
    }
    const reply: ControlReply = { code: 0, out: "", err: "" };
    try {
      const { result, out } = await captured(() => withForwardedProof(idToken as string | undefined, () => dispatch(argv as string[])));
      reply.code = result;
      reply.out = out;
    } catch (err) {
      reply.code = err instanceof CliError ? err.exitCode : 1;
      reply.err = `ctl: ${err instanceof Error ? err.message.split("\n")[0] : String(err)}\n`;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(reply));
    return true;
  };
  return { handle, close: () => fs.rmSync(file, { force: true }) };
}
