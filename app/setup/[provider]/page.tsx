import { redirect } from "next/navigation";
import { getDb } from "@/db";
import { currentUser } from "@/lib/auth/session";
import { providerInfo } from "@/lib/connect/registry";

export const dynamic = "force-dynamic";

export default async function SetupPage({ params }: { params: Promise<{ provider: string }> }) {
  const { provider } = await params;
  const user = await currentUser();
  if (!user) redirect(`/sign-in?callbackUrl=${encodeURIComponent(`/setup/${provider}`)}`);
  const info = await providerInfo(await getDb(), provider).catch(() => null);
  return (
    <main id="main" className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-bold">{info ? `Connect ${info.displayName}` : "Unknown provider"}</h1>
      {info ? (
        <>
          <p className="mt-3">
            Your MCP client cannot open links, so connect here instead. Afterwards, run the request in your client again.
          </p>
          <form method="post" action={`/setup/${provider}/start`} className="mt-6">
            <button className="rounded bg-blue-700 px-4 py-2 font-medium text-white hover:bg-blue-800">
              Start connecting {info.displayName}
            </button>
          </form>
        </>
      ) : (
        <p className="mt-3">No provider with this name is registered.</p>
      )}
    </main>
  );
}
