// A process of its own serving lib/audit/verify-upload.ts over HTTP, so a test can measure that
// process's memory (the route adds only sign-in and the role check to this). Run it with
// --expose-gc: /memory/reset collects garbage and starts a new peak, /memory reports the peak of
// what JavaScript holds (heap plus buffers) since. (Its RSS is dominated by the embedded store's
// WebAssembly memory, whose free pages would absorb a buffered upload unseen.)
// Store: DATABASE_URL when set, else an in-memory PGlite. Prints {"port":N} when listening.
import http from "node:http";
import { openStore, type Store } from "@/db/client";
import { storeConfigFromEnv, type StoreConfig } from "@/db/config";
import { migrateStore } from "@/db/migrate";
import { loadSigner } from "@/lib/audit/signing";
import { verifyUpload, verifyUploadLimit } from "@/lib/audit/verify-upload";

const config: StoreConfig = process.env.DATABASE_URL ? storeConfigFromEnv() : { kind: "pglite-memory" };
const store: Store = await openStore(config);
if (!process.env.DATABASE_URL) await migrateStore(store, config);
// Pinned to the key in DATA_DIR, as the route pins to the deployment's own key.
const check = { maxBytes: verifyUploadLimit(), trustedFingerprint: loadSigner().keyFingerprint };
const held = () => process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
let base = held();
let peak = base;
setInterval(() => (peak = Math.max(peak, held())), 5).unref();
const server = http.createServer(async (req, res) => {
  if (req.url === "/memory/reset") {
    (globalThis as { gc?: () => void }).gc?.();
    base = peak = held();
    res.end(JSON.stringify({ base }));
    return;
  }
  if (req.url === "/memory") {
    res.end(JSON.stringify({ base, peak }));
    return;
  }
  const out = await verifyUpload(
    store.db,
    "op-auditor",
    { contentType: req.headers["content-type"] ?? null, contentLength: req.headers["content-length"] ?? null, body: req },
    check,
  );
  res.writeHead(out.status, { "content-type": "application/json", connection: "close" });
  res.end(JSON.stringify(out.body));
  res.once("finish", () => req.destroy());
});
server.listen(0, "127.0.0.1", () => process.stdout.write(JSON.stringify({ port: (server.address() as { port: number }).port }) + "\n"));
process.on("SIGTERM", () => {
  server.close();
  void store.close().finally(() => process.exit(0));
});
