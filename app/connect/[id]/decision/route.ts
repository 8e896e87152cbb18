import { getDb } from "@/db";
import { currentUser } from "@/lib/auth/session";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { isSameOriginPost } from "@/lib/auth/same-origin";
import { continueConnect, declineConnect } from "@/lib/connect/flow";

export const dynamic = "force-dynamic";

export async function POST(req: Request, ctx: { params: Promise<{ id: string }> }) {
  const { id } = await ctx.params;
  const base = oidcConfig().appUrl;
  const go = (path: string) => Response.redirect(new URL(path, base), 303);
  if (!isSameOriginPost(req, base)) return new Response("cross-site request refused", { status: 403 });
  const user = await currentUser();
  if (!user) return go(`/sign-in?callbackUrl=${encodeURIComponent(`/connect/${id}`)}`);
  const action = (await req.formData()).get("action");
  const db = await getDb();
  const who = { sub: user.sub, tenant: user.tenant };
  if (action === "continue") {
    const r = await continueConnect(db, id, who);
    return r.ok ? Response.redirect(r.location, 303) : go(`/connect/problem?reason=${r.problem}`);
  }
  if (action === "decline" || action === "cancel") {
    const r = await declineConnect(db, id, who, action);
    return r.ok ? go(`/connect/done?result=${action === "decline" ? "declined" : "cancelled"}`) : go(`/connect/problem?reason=${r.problem}`);
  }
  return new Response("unknown action", { status: 400 });
}
