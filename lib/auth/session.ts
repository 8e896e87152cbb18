// The signed-in browser user, read once per request (React cache) from the next-auth JWT cookie.
// This says who the browser is; what they may do is decided by authorize() against the store.
import { getServerSession } from "next-auth";
import { cache } from "react";
import { authOptions, type SessionUser } from "./next-auth-options";

export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions());
  return session?.user ?? null;
});
