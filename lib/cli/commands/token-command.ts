// `ctl token`: a short-lived MCP access token from the bundled development provider, minted
// in-process with its persisted keys. Refused when another issuer is authoritative: this command
// must never become a way around a real identity provider.
import { accountBySubject } from "@/lib/auth/dev-idp/accounts";
import { CTL_CLIENT_ID, createDevProvider, mintMcpAccessToken, staticClientIds } from "@/lib/auth/dev-idp/provider";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { emit, parse, positiveInt } from "../args";
import { CliError, UsageError } from "../errors";

export async function tokenCommand(argv: string[]): Promise<number> {
  const { values } = parse(argv, {
    subject: { type: "string" },
    tenant: { type: "string" },
    ttl: { type: "string" },
    client: { type: "string" },
    json: { type: "boolean" },
  });
  if (!values.subject) throw new UsageError('--subject SUB is required; run "ctl help" for usage');
  const ttl = positiveInt("ttl", values.ttl, 600);
  if (ttl < 1 || ttl > 24 * 3600) throw new UsageError("--ttl must be between 1 and 86400 seconds");
  let cfg;
  try {
    cfg = oidcConfig();
  } catch (err) {
    throw new CliError((err as Error).message);
  }
  if (!cfg.devProvider)
    throw new CliError("ctl token only works with the bundled development identity provider; OIDC_ISSUER names another issuer");
  const known = accountBySubject(values.subject);
  const tenant = values.tenant ?? known?.tenant;
  if (!tenant) throw new UsageError(`--tenant is required for a subject that is not a demo account`);
  // The client id is what selects the token's client profile (and so its flows): only the
  // provider's static clients, never a name the caller makes up.
  const clientId = values.client ?? CTL_CLIENT_ID;
  if (!staticClientIds().includes(clientId)) throw new UsageError(`--client must be one of ${staticClientIds().join(", ")}`);
  const token = await mintMcpAccessToken(createDevProvider(), {
    subject: values.subject,
    tenant,
    ttlSeconds: ttl,
    mcpResource: cfg.mcpResource,
    clientId,
  });
  emit(
    values.json ?? false,
    {
      access_token: token,
      token_type: "Bearer",
      expires_in: ttl,
      resource: cfg.mcpResource,
      subject: values.subject,
      tenant,
      client_id: clientId,
    },
    token,
  );
  return 0;
}
