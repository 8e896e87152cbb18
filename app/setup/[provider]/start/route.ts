import { getDb } from "@/db";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { sameOriginOnly } from "@/lib/auth/request-guard";
import { currentUser } from "@/lib/auth/session";
import { startSetup } from "@/lib/connect/setup";

export const dynamic = "force-dynamic";

export const POST = sameOriginOnly("form", async (req: Request, ctx: { params: Promise<{ provider: string }> }) => {
  const { provider } = await ctx.params;
  const base = oidcConfig().appUrl;
  const user = await currentUser();
  if (!user) return Response.redirect(new URL(`/sign-in?callbackUrl=/setup/${encodeURIComponent(provider)}`, base), 303);
  const r = await startSetup(await getDb(), provider, { sub: user.sub, tenant: user.tenant });
  if (!r.ok) return new Response(`Not started: ${r.reason}`, { status: 409, headers: { "content-type": "text/plain; charset=utf-8" } });
  if ("alreadyConnected" in r) return Response.redirect(new URL("/connect/done?result=connected", base), 303);
  return Response.redirect(new URL(r.connectPath, base), 303);
});
