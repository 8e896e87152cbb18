// PGlite keeps its data directory open exclusively: two processes on one directory corrupt it.
// This lock makes the second process (the CLI while the demo runs) fail at once with a message
// naming the holder, instead of hanging or damaging the store. proper-lockfile refreshes the lock
// while we hold it, so a crashed holder's lock goes stale and is taken over after `staleMs`.
import fs from "node:fs";
import path from "node:path";
import lockfile from "proper-lockfile";

export class StoreBusyError extends Error {
  override name = "StoreBusyError";
}

const STALE_MS = 10_000;

interface Owner {
  pid: number;
  purpose: string;
  since: string;
}

export async function lockDataDir(dataDir: string, purpose: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, "store.lock");
  const ownerPath = path.join(dataDir, "store.owner.json");
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(dataDir, {
      lockfilePath: lockPath,
      stale: STALE_MS,
      update: STALE_MS / 4,
      retries: 0,
      realpath: false,
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ELOCKED") throw err;
    const owner = readOwner(ownerPath);
    const who = owner ? `pid ${owner.pid} (${owner.purpose}, since ${owner.since})` : "another process";
    throw new StoreBusyError(
      `the embedded store in ${dataDir} is in use by ${who}; stop it first, or set DATABASE_URL to share a PostgreSQL server between processes`,
    );
  }
  const owner: Owner = { pid: process.pid, purpose, since: new Date().toISOString() };
  fs.writeFileSync(ownerPath, JSON.stringify(owner));
  return async () => {
    fs.rmSync(ownerPath, { force: true });
    await release();
  };
}

function readOwner(ownerPath: string): Owner | undefined {
  try {
    return JSON.parse(fs.readFileSync(ownerPath, "utf8")) as Owner;
  } catch {
    return undefined;
  }
}
