// A real OAuth issuer (oidc-provider) for the gateway's client-credentials authentication to an
// upstream: one confidential client allowed the client_credentials grant, access tokens issued as
// JWTs for one audience (the upstream) with a chosen lifetime, keys at /jwks. Counts the token
// requests it answered, so a test can tell a cached token from a fresh one.
import http from "node:http";
import type net from "node:net";
import Provider, { errors } from "oidc-provider";

export interface CcIssuer {
  issuer: string;
  jwksUrl: string;
  /** Token requests answered, successful or not. */
  tokenRequests: number;
  close(): Promise<void>;
}

export async function startClientCredentialsIssuer(opts: {
  clientId: string;
  clientSecret: string;
  audience: string;
  ttlSeconds: number;
}): Promise<CcIssuer> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const issuer = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: opts.clientId,
        client_secret: opts.clientSecret,
        grant_types: ["client_credentials"],
        redirect_uris: [],
        response_types: [],
        token_endpoint_auth_method: "client_secret_post",
      },
    ],
    scopes: ["tools"],
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        // The upstream is this client's only audience (as an issuer configures it for a service account).
        defaultResource: async () => opts.audience,
        useGrantedResource: async () => true,
        getResourceServerInfo: async (_ctx, resource) => {
          if (resource !== opts.audience) throw new errors.InvalidTarget();
          return {
            scope: "tools",
            audience: opts.audience,
            accessTokenTTL: opts.ttlSeconds,
            accessTokenFormat: "jwt",
            jwt: { sign: { alg: "RS256" } },
          };
        },
      },
    },
  });
  const handler = provider.callback();
  const state = { tokenRequests: 0 };
  server.on("request", (req, res) => {
    if (req.method === "POST" && req.url === "/token") state.tokenRequests++;
    handler(req, res);
  });
  return {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    get tokenRequests() {
      return state.tokenRequests;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
