import type { ReactNode } from "react";

// A label wrapping its control, so the control's accessible name starts with the label text (the
// keyboard-walk e2e test and screen readers both rely on it), with an optional error under it.
// Spelled out, not built from the size, so Tailwind's scanner sees each class.
const TEXT = { xs: "text-xs", sm: "text-sm", base: "" } as const;

export function Field({
  label,
  error,
  size = "sm",
  strong = false,
  className = "",
  children,
}: {
  label: ReactNode;
  error?: string;
  size?: "xs" | "sm" | "base";
  strong?: boolean;
  className?: string;
  children: ReactNode;
}) {
  const text = TEXT[size];
  return (
    <label className={`grid gap-1 ${text} ${className}`.trim()}>
      <span className={strong ? "font-medium" : undefined}>{label}</span>
      {children}
      {error ? <span className="text-red-800 dark:text-red-300">{error}</span> : null}
    </label>
  );
}

/** A checkbox with its label to the right. */
export function CheckField({ label, className = "", children }: { label: ReactNode; className?: string; children: ReactNode }) {
  return (
    <label className={`flex items-center gap-1 text-sm ${className}`.trim()}>
      {children} {label}
    </label>
  );
}
