import { SignInButton } from "@/components/sign-in-button";

export const dynamic = "force-dynamic";

function safeCallback(raw: string | string[] | undefined): string {
  const v = Array.isArray(raw) ? raw[0] : raw;
  // Only same-site paths: never an open redirect.
  return v && /^\/(?![/\\])/.test(v) ? v : "/console";
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const error = params.error;
  return (
    <main id="main" className="mx-auto max-w-md p-8">
      <h1 className="text-2xl font-bold">Sign in</h1>
      <p className="mt-2 text-slate-700 dark:text-slate-300">
        The console and the connect pages use your organisation&apos;s identity provider. Your access depends on the roles it gives you.
      </p>
      {error ? (
        <p role="alert" className="mt-4 rounded border border-red-700 p-2 text-red-800 dark:text-red-300">
          Sign-in did not complete ({String(error)}). Try again.
        </p>
      ) : null}
      <div className="mt-6">
        <SignInButton callbackUrl={safeCallback(params.callbackUrl)} label="Sign in with single sign-on" />
      </div>
    </main>
  );
}
