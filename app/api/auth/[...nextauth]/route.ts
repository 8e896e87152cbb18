import NextAuth from "next-auth";
import { authOptions } from "@/lib/auth/next-auth-options";
import { sameOriginOnly } from "@/lib/auth/request-guard";

export const dynamic = "force-dynamic";

async function handler(req: Request, ctx: { params: Promise<{ nextauth: string[] }> }) {
  return NextAuth(authOptions())(req, { params: await ctx.params });
}

// next-auth checks its own CSRF token on sign-in and sign-out posts; the origin guard comes first
// anyway, so every mutating route in the app passes the same check.
const post = sameOriginOnly("form", handler);
export { handler as GET, post as POST };
