// The paths the app server answers itself, before Next.js: the development identity provider
// (/oidc), the RFC 9728 protected-resource metadata, and the MCP endpoint (/api/mcp).
import { randomBytes } from "node:crypto";
import type http from "node:http";
import { createDownstreamApi, createDownstreamProvider, DOWNSTREAM_PREFIX } from "@/lib/auth/dev-idp/downstream";
import { createDevIdpHandler } from "@/lib/auth/dev-idp/mount";
import { createPgRecordStore } from "@/lib/auth/dev-idp/pg-record-store";
import { createDevProvider } from "@/lib/auth/dev-idp/provider";
import { clientIdClaimsFromEnv, createBearerVerifier, protectedResourceMetadata } from "@/lib/auth/mcp-bearer";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { abuseConfig } from "@/lib/abuse/config";
import { guardConnectRequest, isConnectPath } from "@/lib/abuse/connect-guard";
import { requestLimiter } from "@/lib/abuse/rate-limiter";
import { createMcpEndpoint } from "@/lib/mcp/http-endpoint";
import { liveSessions } from "@/lib/mcp/live-sessions";
import { watchSessions } from "@/lib/metrics/instance-metrics";
import { observeMcpRequest } from "@/lib/metrics/mcp-request";
import { gatewayJwks, JWKS_PATH } from "@/lib/gateway/identity-assertion";
import { allowedOriginSet } from "@/lib/mcp/origin-guard";
import { vaultKey } from "@/lib/vault/vault";
import type { Db } from "@/db/client";
import { newFlowStage } from "@/lib/policy/new-flow-stage";
import type { PolicySource } from "@/lib/policy/policy-source";

export type RouteHandler = ((req: http.IncomingMessage, res: http.ServerResponse) => Promise<boolean>) & {
  /** Stops this handler's timers (idle-session sweep). */
  close?: () => void;
  /** Evicts idle MCP sessions now, as the timer does every quarter of the idle time. */
  sweepIdleSessions?: () => Promise<{ evicted: number }>;
};

export function createAppRoutes(db: () => Promise<Db>, policy?: PolicySource): RouteHandler {
  const cfg = oidcConfig();
  // A bad FLOW_NEW_STAGE (or the retired FLOW_DEFAULT_CANARY_PERCENT) stops the server at start,
  // not at the first call of a new client.
  newFlowStage();
  // The development providers keep their sessions, consents and clients in the store, so a
  // restart or a second instance keeps users signed in.
  const records = (namespace: string) => createPgRecordStore(db, namespace, vaultKey());
  const devIdp = cfg.devProvider ? createDevIdpHandler(createDevProvider(process.env, records("dev-oidc"))) : undefined;
  // The demo downstream provider ("Demo Git") runs wherever the development issuer does.
  const downstream = cfg.devProvider
    ? createDevIdpHandler(createDownstreamProvider(process.env, records("dev-downstream")), {
        prefix: DOWNSTREAM_PREFIX,
        title: "Demo Git",
      })
    : undefined;
  const downstreamApi = cfg.devProvider ? createDownstreamApi() : undefined;
  const mcpPath = new URL(cfg.mcpResource).pathname;
  const metadata = JSON.stringify(protectedResourceMetadata(cfg.mcpResource, cfg.issuer));
  const limits = abuseConfig();
  const window = { windowMs: limits.rateWindowMs };
  const mcp = createMcpEndpoint({
    verify: createBearerVerifier({
      issuer: cfg.issuer,
      audience: cfg.mcpResource,
      tenantClaim: cfg.tenantClaim,
      requiredTyp: cfg.accessTokenTyp ?? null,
      clientIdClaims: clientIdClaimsFromEnv(),
    }),
    resource: cfg.mcpResource,
    db,
    policy,
    instanceId: `${process.pid}-${randomBytes(4).toString("hex")}`,
    allowedOrigins: allowedOriginSet(cfg.appUrl, limits.mcpAllowedOrigins),
    sessionCap: { maxPerSubject: limits.maxSessionsPerSubject, idleMs: limits.sessionIdleMs },
    limiter: requestLimiter(db, {
      name: "mcp",
      label: "MCP requests",
      perSubject: limits.mcpRatePerSubject,
      perAddress: limits.mcpRatePerAddress,
      ...window,
    }),
    trustProxy: limits.trustProxy,
  });
  const connectGuard = {
    limiter: requestLimiter(db, {
      name: "connect",
      label: "connect requests",
      perSubject: limits.connectRatePerSubject,
      perAddress: limits.connectRatePerAddress,
      ...window,
    }),
    trustProxy: limits.trustProxy,
    sessionSecret: cfg.sessionSecret,
    secureCookie: cfg.appUrl.startsWith("https://"),
  };
  const appHost = new URL(cfg.appUrl).host;
  watchSessions(() => liveSessions().size);

  const routes: RouteHandler = async (req, res) => {
    const path = (req.url ?? "/").split("?")[0]!;
    if (devIdp && (await devIdp(req, res))) return true;
    if (downstreamApi && path === `${DOWNSTREAM_PREFIX}/api/repos`) {
      const { status, body } = await downstreamApi(req.headers.authorization);
      res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
      return true;
    }
    if (downstream && (await downstream(req, res))) return true;
    if (path === "/.well-known/oauth-protected-resource" || path === `/.well-known/oauth-protected-resource${mcpPath}`) {
      res.writeHead(200, {
        "content-type": "application/json",
        "cache-control": "public, max-age=300",
        "access-control-allow-origin": "*",
      });
      res.end(metadata);
      return true;
    }
    if (path === JWKS_PATH) {
      // Public keys upstream MCP servers verify the gateway's identity assertions with.
      res.writeHead(200, { "content-type": "application/jwk-set+json", "cache-control": "public, max-age=300" });
      res.end(JSON.stringify(await gatewayJwks()));
      return true;
    }
    if (path === mcpPath) {
      await observeMcpRequest(req, res, () => mcp(req, res));
      return true;
    }
    if (isConnectPath(path) && (await guardConnectRequest(req, res, connectGuard))) return true;
    // Browser pages on another host name than APP_URL would lose their sign-in cookies
    // half-way through the OAuth round trip: send them to the canonical host first.
    if (
      (req.method === "GET" || req.method === "HEAD") &&
      req.headers.host &&
      req.headers.host !== appHost &&
      !path.startsWith("/api/") &&
      !path.startsWith("/_next/")
    ) {
      res.writeHead(308, { location: `${cfg.appUrl}${req.url ?? "/"}` });
      res.end();
      return true;
    }
    return false;
  };
  routes.close = () => mcp.close();
  routes.sweepIdleSessions = () => mcp.sweep();
  return routes;
}
