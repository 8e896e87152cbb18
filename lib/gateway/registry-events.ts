// Tells this instance's gateway machinery that an upstream's registry row changed or went away, so
// pooled sessions and cached tool lists made under the old row are dropped at once. (Other
// instances notice on their next call: the pool compares the row it is handed with the one each
// session was opened under.) A listener list rather than an import keeps registry.ts free of the pool.
type Listener = (upstreamId: string) => void;

const listeners = new Set<Listener>();

export function onUpstreamChanged(listener: Listener): () => void {
  listeners.add(listener);
  return () => void listeners.delete(listener);
}

export function upstreamChanged(upstreamId: string): void {
  for (const l of listeners) l(upstreamId);
}
