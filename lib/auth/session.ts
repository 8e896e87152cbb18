// The signed-in browser user, read once per request (React cache) from the next-auth JWT cookie
// and confirmed against the server-side session row: a cookie whose session was ended (sign-out,
// an admin) or has expired is no session at all. This says who the browser is; what they may do is
// decided by authorize() against the store.
import { getServerSession } from "next-auth";
import { cache } from "react";
import { getDb } from "@/db";
import { isSessionAlive } from "./console-sessions";
import { authOptions, type SessionUser } from "./next-auth-options";

export const currentUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions());
  const user = session?.user;
  if (!user?.sub) return null;
  return (await isSessionAlive(await getDb(), user.sid, user.sub)) ? user : null;
});
