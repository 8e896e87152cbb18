import type { ReactNode } from "react";

/**
 * A wide table's horizontal scroll container. It takes keyboard focus and has a name, so a person
 * without a mouse can scroll it when its content (a long id, an attacker's long target) overflows.
 */
export function ScrollRegion({ label, className = "", children }: { label: string; className?: string; children: ReactNode }) {
  return (
    <div role="region" aria-label={label} tabIndex={0} className={`overflow-x-auto ${className}`}>
      {children}
    </div>
  );
}
