import type { ButtonHTMLAttributes } from "react";

// The console's buttons in four tones and two sizes. Focus outlines come from the global
// :focus-visible rule in app/globals.css, so no variant may remove the outline.
const TONES = {
  outline: "border border-slate-500 hover:bg-slate-100 dark:hover:bg-slate-800",
  primary: "bg-blue-700 text-white hover:bg-blue-800",
  danger: "bg-red-700 text-white hover:bg-red-800",
  success: "bg-green-800 text-white hover:bg-green-900",
  dangerOutline: "border border-red-700 text-red-800 dark:text-red-300",
} as const;

const SIZES = { xs: "px-2 py-0.5 text-xs", sm: "px-2 py-1 text-xs", md: "px-3 py-1", lg: "px-4 py-2 font-medium" } as const;

export type ButtonTone = keyof typeof TONES;
export type ButtonSize = keyof typeof SIZES;

export function buttonClass(tone: ButtonTone = "outline", size: ButtonSize = "md", extra = ""): string {
  return `rounded disabled:opacity-60 ${TONES[tone]} ${SIZES[size]} ${extra}`.trim();
}

export function Button({
  tone = "outline",
  size = "md",
  className = "",
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { tone?: ButtonTone; size?: ButtonSize }) {
  return <button {...rest} className={buttonClass(tone, size, className)} />;
}
