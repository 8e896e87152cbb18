import Link from "next/link";

export default function SignedOutPage() {
  return (
    <main id="main" className="mx-auto max-w-md p-8">
      <h1 className="text-2xl font-bold">Signed out</h1>
      <p className="mt-2">Your console session and your identity provider session have ended.</p>
      <p className="mt-4">
        <Link className="text-blue-700 underline dark:text-blue-300" href="/sign-in">
          Sign in again
        </Link>
      </p>
    </main>
  );
}
