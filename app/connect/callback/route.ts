import { getDb } from "@/db";
import { currentUser } from "@/lib/auth/session";
import { oidcConfig } from "@/lib/auth/oidc-config";
import { completeCallback } from "@/lib/connect/flow";

export const dynamic = "force-dynamic";

export async function GET(req: Request) {
  const base = oidcConfig().appUrl;
  const go = (path: string) => Response.redirect(new URL(path, base), 303);
  const user = await currentUser();
  if (!user) return go("/connect/problem?reason=not_signed_in");
  const r = await completeCallback(await getDb(), new URL(req.url).searchParams, { sub: user.sub, tenant: user.tenant });
  return r.ok
    ? go(`/connect/done?result=connected&provider=${encodeURIComponent(r.providerName)}`)
    : go(`/connect/problem?reason=${r.problem}`);
}
