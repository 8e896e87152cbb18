import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "./sign-out-button";

export interface ShellUser {
  name: string;
  sub: string;
  roles: string[];
  tenant: string | null;
}

export interface ShellSwitch {
  scope: string;
  reason: string;
}

export interface ShellLink {
  href: string;
  label: string;
}

// The links come from the console route registry (lib/console/routes.ts), passed in by the layout.
export function ConsoleShell({
  user,
  nav,
  switches,
  endSessionUrl,
  children,
}: {
  user: ShellUser;
  nav: ShellLink[];
  switches: ShellSwitch[];
  endSessionUrl: string;
  children: ReactNode;
}) {
  return (
    <div className="min-h-screen">
      <header className="border-b border-slate-200 dark:border-slate-800">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 p-4">
          <div className="flex items-center gap-6">
            <Link href="/console" className="text-lg font-bold">
              Elicitation gateway
            </Link>
            <nav aria-label="Console">
              <ul className="flex gap-4 text-sm">
                {nav.map(({ href, label }) => (
                  <li key={href}>
                    <Link className="underline-offset-4 hover:underline" href={href}>
                      {label}
                    </Link>
                  </li>
                ))}
              </ul>
            </nav>
          </div>
          <div className="flex items-center gap-3 text-sm" data-testid="whoami">
            <span>
              Signed in as <strong>{user.name}</strong>{" "}
              <span className="font-mono text-xs text-slate-600 dark:text-slate-400">({user.sub})</span>
              {" · "}
              <span data-testid="whoami-roles">{user.roles.length ? user.roles.join(", ") : "no console role"}</span>
            </span>
            <SignOutButton endSessionUrl={endSessionUrl} />
          </div>
        </div>
      </header>
      {switches.length > 0 ? (
        <div
          role="status"
          className="border-b border-red-800 bg-red-100 px-4 py-2 text-red-900 dark:bg-red-950 dark:text-red-100"
          data-testid="kill-switch-banner"
        >
          <div className="mx-auto max-w-6xl">
            <strong>Elicitation stopped:</strong> {switches.map((s) => `${s.scope} (${s.reason})`).join("; ")}
          </div>
        </div>
      ) : null}
      <div className="mx-auto max-w-6xl p-4">{children}</div>
    </div>
  );
}
