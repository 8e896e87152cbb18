import type { ReactNode } from "react";

// Small coloured labels (stage, gate status, URL verdict, "stuck"). The tones keep the contrast the
// axe run checks in light and dark themes: dark text on a light fill in both.
const TONES = {
  neutral: "bg-slate-200 text-slate-900",
  good: "bg-green-100 text-green-900",
  bad: "bg-red-100 text-red-900",
  warn: "bg-amber-100 text-amber-950",
  stuck: "bg-amber-200 text-amber-950",
} as const;

export type BadgeTone = keyof typeof TONES;

export function badgeClass(tone: BadgeTone, extra = ""): string {
  return `rounded px-1 text-xs ${TONES[tone]} ${extra}`.trim();
}

export function Badge({ tone = "neutral", className = "", children }: { tone?: BadgeTone; className?: string; children: ReactNode }) {
  return <span className={badgeClass(tone, className)}>{children}</span>;
}
