"use client";

import { signIn } from "next-auth/react";

export function SignInButton({ callbackUrl, label }: { callbackUrl: string; label: string }) {
  return (
    <button
      type="button"
      onClick={() => void signIn("oidc", { callbackUrl })}
      className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800"
    >
      {label}
    </button>
  );
}
