import { one, ownValue } from "@/lib/http/params";

const TEXT: Record<string, string> = {
  connected: "Connected. Go back to your MCP client and run the request again; it will use this connection.",
  declined: "You declined. Nothing was connected.",
  cancelled: "Cancelled. Nothing was connected; your MCP client can ask again.",
};

export default async function ConnectDone({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const raw = one((await searchParams).result);
  const text = ownValue(TEXT, raw) ?? "Done.";
  // Only a known result is echoed into the page's attributes.
  const result = ownValue(TEXT, raw) ? raw : undefined;
  return (
    <main id="main" className="mx-auto max-w-xl p-8">
      <h1 className="text-2xl font-bold">{result === "connected" ? "Connected" : "Nothing was connected"}</h1>
      <p className="mt-3" data-testid="connect-done" data-result={result}>
        {text}
      </p>
      <p className="mt-3 text-sm">You can close this tab.</p>
    </main>
  );
}
