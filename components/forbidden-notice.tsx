export function ForbiddenNotice({ name, reason }: { name: string; reason: string }) {
  return (
    <main id="main" className="py-8">
      <h1 className="text-2xl font-bold">Not allowed</h1>
      <p className="mt-2" data-testid="forbidden">
        {name}, your account cannot open this page ({reason}). The attempt was recorded in the audit log.
      </p>
    </main>
  );
}
