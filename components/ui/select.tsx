import type { SelectHTMLAttributes } from "react";
import { controlClass, type ControlSize } from "./input";

export interface SelectOption {
  value: string;
  label: string;
}

/** A select from plain strings or {value, label} pairs, with an optional "any" first choice. */
export function Select({
  options,
  any,
  size = "md",
  className = "",
  ...rest
}: Omit<SelectHTMLAttributes<HTMLSelectElement>, "size"> & {
  options: readonly (string | SelectOption)[];
  any?: string;
  size?: ControlSize;
}) {
  return (
    <select {...rest} className={controlClass(size, className)}>
      {any !== undefined ? <option value="">{any}</option> : null}
      {options.map((o) => {
        const { value, label } = typeof o === "string" ? { value: o, label: o } : o;
        return (
          <option key={value} value={value}>
            {label}
          </option>
        );
      })}
    </select>
  );
}
