// The one list of the app's symmetric secrets (the vault key and the signing key have their own
// formats). Kept apart from secrets.ts so the settings table can use the minimum lengths without
// an import cycle.
export interface SecretSpec {
  /** The environment variable that holds it. */
  env: string;
  /** The file name under DATA_DIR/keys a development value is generated into. */
  devFile: string;
  /** What it protects, for the error message and the README's table. */
  purpose: string;
  /** Minimum length of a configured value (characters), so a placeholder like "x" is refused. */
  minLength: number;
}

export const SECRETS = {
  session: { env: "SESSION_SECRET", devFile: "session", purpose: "encrypts the console's session cookie", minLength: 32 },
  connectNonce: {
    env: "CONNECT_NONCE_KEY",
    devFile: "connect-nonce",
    purpose: "derives the URL-mode connect nonce (HMAC key)",
    minLength: 32,
  },
  metricsToken: {
    env: "METRICS_TOKEN",
    devFile: "metrics-token",
    purpose: "bearer token for /api/metrics (unset in production: the endpoint is off)",
    minLength: 16,
  },
  devConsoleClient: {
    env: "DEV_IDP_CONSOLE_CLIENT_SECRET",
    devFile: "dev-console-client",
    purpose: "the console's client secret at the bundled development identity provider",
    minLength: 16,
  },
  demoDownstreamClient: {
    env: "DEMO_DOWNSTREAM_CLIENT_SECRET",
    devFile: "downstream-client",
    purpose: "this app's client secret at the bundled demo downstream provider",
    minLength: 16,
  },
} as const satisfies Record<string, SecretSpec>;

export type SecretName = keyof typeof SECRETS;
