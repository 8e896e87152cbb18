// Acceptance: a real MCP client signs in to the MCP endpoint the standard way. The SDK client's own
// OAuth support discovers the protected-resource metadata from the 401 challenge, registers itself
// dynamically, sends the user to the authorization endpoint with PKCE and the resource indicator,
// and exchanges the code; the person signs in through the development provider in Chromium.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { OAuthClientInformationMixed, OAuthTokens } from "@modelcontextprotocol/sdk/shared/auth.js";
import { decodeJwt } from "jose";
import { describe, expect, inject, it } from "vitest";
import { useBrowser } from "../helpers/browser";
import { DEMO_PASSWORD } from "../helpers/sign-in";

const REDIRECT = "http://127.0.0.1:9/oauth/callback"; // nothing listens: the browser's request is intercepted
const browser = useBrowser();

class BrowserOAuthProvider implements OAuthClientProvider {
  info?: OAuthClientInformationMixed;
  saved?: OAuthTokens;
  verifier = "";
  authorizationUrl?: URL;
  get redirectUrl() {
    return REDIRECT;
  }
  get clientMetadata() {
    return {
      client_name: "e2e MCP client",
      redirect_uris: [REDIRECT],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.info = info;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(v: string) {
    this.verifier = v;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe("MCP client sign-in through OAuth", () => {
  it("discovers, registers, signs in with PKCE and a resource indicator, and calls a tool as that user", async () => {
    const base = inject("baseUrl");
    const resource = `${base}/api/mcp`;
    const provider = new BrowserOAuthProvider();
    const first = new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider });
    const client = new Client({ name: "e2e-oauth", version: "1.0.0" }, { capabilities: { elicitation: { form: {}, url: {} } } });
    await expect(client.connect(first)).rejects.toThrow(/Unauthorized/i);

    const auth = provider.authorizationUrl!;
    expect(auth.origin + auth.pathname).toBe(`${base}/oidc/auth`);
    expect(auth.searchParams.get("code_challenge_method")).toBe("S256");
    expect(auth.searchParams.get("resource")).toBe(resource);
    expect(provider.info?.client_id).toMatch(/^[A-Za-z0-9_-]{10,}$/);

    const page = await browser().newPage();
    let code: string | null = null;
    await page.route("http://127.0.0.1:9/**", async (route) => {
      code = new URL(route.request().url()).searchParams.get("code");
      await route.fulfill({ status: 200, contentType: "text/plain", body: "signed in" });
    });
    await page.goto(auth.toString());
    await page.getByLabel("Login").fill("bob");
    await page.getByLabel("Password").fill(DEMO_PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    // A dynamically registered client: the provider asks before it sends a code anywhere.
    await page.getByRole("heading", { name: "Allow this application to act as you?" }).waitFor();
    expect(code).toBeNull();
    expect(await page.locator(".host").first().textContent()).toBe("127.0.0.1:9");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL(/127\.0\.0\.1:9\/oauth\/callback/);
    await page.close();
    expect(code).toMatch(/^[A-Za-z0-9_-]{20,}$/);

    await first.finishAuth(code!);
    const claims = decodeJwt(provider.saved!.access_token);
    expect(claims).toMatchObject({ aud: resource, iss: `${base}/oidc`, sub: "user-bob-1002", tenant: "acme" });

    const second = new StreamableHTTPClientTransport(new URL(resource), { authProvider: provider });
    await client.connect(second);
    const result = await client.callTool({ name: "describe_capabilities", arguments: {} });
    expect(result.structuredContent).toMatchObject({ subject: "user-bob-1002", tenant: "acme", modes: { form: true, url: true } });
    await client.close();
  });
});
