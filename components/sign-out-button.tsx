"use client";

import { signOut } from "next-auth/react";

/** Ends the console session, then the issuer's session (RP-initiated logout). */
export function SignOutButton({ endSessionUrl }: { endSessionUrl: string }) {
  return (
    <button
      type="button"
      onClick={() => void signOut({ callbackUrl: endSessionUrl })}
      className="rounded border border-slate-400 px-3 py-1 text-sm hover:bg-slate-100 dark:hover:bg-slate-800"
    >
      Sign out
    </button>
  );
}
