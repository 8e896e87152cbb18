import { getDb } from "@/db";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { isSameOriginPost } from "@/lib/auth/same-origin";
import { currentUser } from "@/lib/auth/session";
import { startSetup } from "@/lib/connect/setup";

export const dynamic = "force-dynamic";

export async function POST(req: Request, ctx: { params: Promise<{ provider: string }> }) {
  const { provider } = await ctx.params;
  const base = oidcConfig().appUrl;
  if (!isSameOriginPost(req, base)) {
    return new Response("cross-site request refused", { status: 403 });
  }
  const user = await currentUser();
  if (!user) return Response.redirect(new URL(`/sign-in?callbackUrl=/setup/${encodeURIComponent(provider)}`, base), 303);
  const r = await startSetup(await getDb(), provider, { sub: user.sub, tenant: user.tenant });
  if (!r.ok) return new Response(`Not started: ${r.reason}`, { status: 409, headers: { "content-type": "text/plain; charset=utf-8" } });
  if ("alreadyConnected" in r) return Response.redirect(new URL("/connect/done?result=connected", base), 303);
  return Response.redirect(new URL(r.connectPath, base), 303);
}
