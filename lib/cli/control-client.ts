// The CLI side of the local control channel: when the embedded store is held by a running app
// server, allow-listed commands are sent to it over loopback with the secret it left in the data
// directory (readable only by the user who runs both), with the operator's stored ID token: the
// secret only opens the channel, the server verifies the token itself before anyone acts as an
// operator. Returns undefined when there is no channel.
import fs from "node:fs";
import path from "node:path";
import { storeConfigFromEnv } from "@/db/config";
import { CONTROL_COMMANDS, controlFile, type ControlReply } from "./control-protocol";
import { storedIdToken } from "./operator-proof";

export async function forwardToServer(argv: string[]): Promise<number | undefined> {
  const config = storeConfigFromEnv();
  if (config.kind !== "pglite" || !CONTROL_COMMANDS.has(argv[0] ?? "")) return undefined;
  // Offline verification needs no store, and reads the caller's file or stdin: it always runs here.
  if (argv[0] === "audit" && argv[1] === "verify") return undefined;
  let channel: { url: string; token: string };
  try {
    channel = JSON.parse(fs.readFileSync(controlFile(config.dataDir), "utf8"));
  } catch {
    return undefined;
  }
  // Paths are the caller's: make them absolute before another process reads them.
  const args = argv.map((a, i) => (argv[i - 1] === "--out" || argv[i - 1] === "--tar" ? path.resolve(a) : a));
  const res = await fetch(channel.url, {
    method: "POST",
    headers: { authorization: `Bearer ${channel.token}`, "content-type": "application/json" },
    body: JSON.stringify({ argv: args, idToken: storedIdToken() }),
    // Long enough for `gates run`, which runs test suites inside the server process.
    signal: AbortSignal.timeout(30 * 60_000),
  }).catch(() => undefined);
  if (!res || !res.ok) return undefined;
  const reply = (await res.json()) as ControlReply;
  if (reply.out) process.stdout.write(reply.out);
  if (reply.err) process.stderr.write(reply.err);
  return reply.code;
}
