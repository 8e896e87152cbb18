// The key that seals multi-round-trip requestState (2026-07-28). Configured in production
// (MCP_REQUEST_STATE_KEY: 32 bytes, base64); generated once into DATA_DIR/keys in development,
// like the other development secrets. Losing or rotating it only makes states in flight unusable:
// their callers start over, and the reconciler closes the records they left.
import { createHash } from "node:crypto";
import type { Env } from "@/db/config";
import { devSecret } from "@/lib/auth/oidc-config";
import { isProduction } from "@/lib/config/app-env";

export function requestStateKey(env: Env = process.env): Buffer {
  const configured = env.MCP_REQUEST_STATE_KEY?.trim();
  if (configured) {
    const key = Buffer.from(configured, "base64");
    if (key.length !== 32 || !/^[A-Za-z0-9+/_-]+=*$/.test(configured))
      throw new Error("MCP_REQUEST_STATE_KEY must be 32 bytes, base64-encoded");
    return key;
  }
  if (isProduction(env)) throw new Error("APP_ENV=production needs MCP_REQUEST_STATE_KEY");
  return createHash("sha256").update(devSecret("mcp-request-state", env)).digest();
}
