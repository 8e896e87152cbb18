// The store-wide aggregates (prometheus.ts) read the shared database, so every instance reports the
// same figures: summed across instances they would double count. They are served under their own
// family, every name prefixed `store_` (store_elicitation_records, store_audit_log_entries, ...),
// which dashboards read with max() or from one instance; the per-instance figures
// (instance-metrics.ts) keep plain names and are summed.
export const STORE_PREFIX = "store_";

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

/** Prefixes every metric name in a Prometheus text exposition (HELP, TYPE and sample lines). */
export function asStoreFamily(text: string): string {
  return text
    .split("\n")
    .map((line) => {
      const meta = /^# (HELP|TYPE) ([a-zA-Z_:][a-zA-Z0-9_:]*)(.*)$/.exec(line);
      if (meta) return `# ${meta[1]} ${STORE_PREFIX}${meta[2]}${meta[3]}`;
      if (line.startsWith("#") || !NAME.test(line)) return line;
      return `${STORE_PREFIX}${line}`;
    })
    .join("\n");
}
