import { getDb } from "@/db";
import { currentUser } from "@/lib/auth/session";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { sameOriginOnly } from "@/lib/auth/request-guard";
import { continueConnect, declineConnect, restartConnect } from "@/lib/connect/flow";

export const dynamic = "force-dynamic";

export const POST = sameOriginOnly("form", async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const { id } = await ctx.params;
  const base = oidcConfig().appUrl;
  const go = (path: string) => Response.redirect(new URL(path, base), 303);
  const user = await currentUser();
  if (!user) return go(`/sign-in?callbackUrl=${encodeURIComponent(`/connect/${id}`)}`);
  // A body that is not a form (wrong content type, truncated) is simply no action: 400 below.
  const action = (await req.formData().catch(() => null))?.get("action");
  const db = await getDb();
  const who = { sub: user.sub, tenant: user.tenant };
  if (action === "continue") {
    const r = await continueConnect(db, id, who);
    return r.ok ? Response.redirect(r.location, 303) : go(`/connect/problem?reason=${r.problem}`);
  }
  if (action === "restart") {
    const r = await restartConnect(db, id, who);
    return r.ok ? Response.redirect(r.location, 303) : go(`/connect/problem?reason=${r.problem}`);
  }
  if (action === "decline" || action === "cancel") {
    const r = await declineConnect(db, id, who, action);
    return r.ok
      ? go(`/connect/done?result=${action === "decline" ? "declined" : "cancelled"}`)
      : go(`/connect/problem?reason=${r.problem}`);
  }
  return new Response("unknown action", { status: 400 });
});
