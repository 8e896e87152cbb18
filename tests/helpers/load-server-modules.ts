// Loaded in a child process by tests/integration/node-runtime.test.ts: the modules a server start
// pulls in, and the bundled provider constructed, so their load-time warnings reach stderr.
await import("@/lib/server/serve");
await import("@/lib/auth/next-auth-options");
const { createDevProvider } = await import("@/lib/auth/dev-idp/provider");
createDevProvider(process.env);
await import("@/lib/cli/dispatch");
process.stdout.write("loaded\n");

export {};
