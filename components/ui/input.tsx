import type { InputHTMLAttributes, TextareaHTMLAttributes } from "react";

// One look for every text box, date box and text area (it was written out ten times).
const BASE = "rounded border border-slate-400 bg-white dark:bg-slate-900";
const SIZES = { sm: "p-1 text-sm", md: "p-1", lg: "p-2" } as const;

export type ControlSize = keyof typeof SIZES;

export function controlClass(size: ControlSize = "md", extra = ""): string {
  return `${BASE} ${SIZES[size]} ${extra}`.trim();
}

export function Input({
  size = "md",
  className = "",
  ...rest
}: Omit<InputHTMLAttributes<HTMLInputElement>, "size"> & { size?: ControlSize }) {
  return <input {...rest} className={controlClass(size, className)} />;
}

export function TextArea({ size = "md", className = "", ...rest }: TextareaHTMLAttributes<HTMLTextAreaElement> & { size?: ControlSize }) {
  return <textarea {...rest} className={controlClass(size, className)} />;
}
