// Where `ctl login` keeps the operator's tokens: one JSON file readable only by the user (0600 in a
// 0700 directory), with one entry per issuer. CTL_SESSION_FILE overrides the location (tests, or
// an operator with several identities); otherwise $XDG_CONFIG_HOME or ~/.config is used. The file
// is never trusted: every use verifies the ID token again (cli-proof.ts).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { type Env, readSetting } from "@/lib/config/schema";

const entrySchema = z.object({
  clientId: z.string().min(1).max(200),
  idToken: z.string().min(1).max(16_384),
  accessToken: z.string().max(16_384).optional(),
  obtainedAt: z.string().max(64),
});
const fileSchema = z.object({ sessions: z.record(z.string().max(2_000), entrySchema) });

export type CliSessionEntry = z.infer<typeof entrySchema>;

export function cliSessionFile(env: Env = process.env): string {
  const explicit = readSetting(env, "CTL_SESSION_FILE");
  if (explicit) return path.resolve(explicit);
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(os.homedir(), ".config");
  return path.join(base, "elicitation-gateway", "session.json");
}

function readAll(file: string): z.infer<typeof fileSchema> {
  let raw: string;
  try {
    // Tokens in a file others can read are as good as shared: refuse rather than use them.
    if ((fs.statSync(file).mode & 0o077) !== 0) throw new Error(`${file} is readable by other users; remove it and run ctl login`);
    raw = fs.readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return { sessions: {} };
    throw err;
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    json = undefined;
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) throw new Error(`${file} is not a ctl session file; remove it and run ctl login`);
  return parsed.data;
}

export function readCliSession(issuer: string, env: Env = process.env): CliSessionEntry | undefined {
  return readAll(cliSessionFile(env)).sessions[issuer];
}

export function writeCliSession(issuer: string, entry: CliSessionEntry, env: Env = process.env): string {
  const file = cliSessionFile(env);
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const all = readAll(file);
  // A map with a null prototype: an issuer named "__proto__" stays an ordinary key.
  const sessions: Record<string, CliSessionEntry> = Object.assign(Object.create(null), all.sessions, { [issuer]: entry });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify({ sessions }, null, 2), { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
  return file;
}

/** Removes this issuer's entry; true when there was one. */
export function removeCliSession(issuer: string, env: Env = process.env): boolean {
  const file = cliSessionFile(env);
  const all = readAll(file);
  if (!Object.hasOwn(all.sessions, issuer)) return false;
  const sessions = Object.fromEntries(Object.entries(all.sessions).filter(([k]) => k !== issuer));
  fs.writeFileSync(file, JSON.stringify({ sessions }, null, 2), { mode: 0o600 });
  return true;
}
