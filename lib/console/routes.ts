// The console's pages, in navigation order, each with the permission its access check asks for.
// One list drives the navigation (components/console-shell.tsx, via the layout) and every page's
// check (page-access.ts): a new page is one entry here. The permission is still checked on the
// server for every view; a link is never a check.
import { PERMISSIONS, type Permission } from "@/lib/auth/permissions";

export interface ConsoleRoute {
  id: string;
  path: string;
  label: string;
  permission: Permission;
}

export const CONSOLE_ROUTES = [
  { id: "overview", path: "/console", label: "Overview", permission: PERMISSIONS.healthRead },
  { id: "records", path: "/console/records", label: "Records", permission: PERMISSIONS.recordsRead },
  { id: "flows", path: "/console/flows", label: "Flows", permission: PERMISSIONS.healthRead },
  { id: "approvals", path: "/console/approvals", label: "Approvals", permission: PERMISSIONS.healthRead },
  { id: "clients", path: "/console/clients", label: "Clients", permission: PERMISSIONS.healthRead },
  { id: "origins", path: "/console/origins", label: "Origins", permission: PERMISSIONS.healthRead },
  { id: "upstreams", path: "/console/upstreams", label: "Upstreams", permission: PERMISSIONS.healthRead },
  { id: "operators", path: "/console/operators", label: "Operators", permission: PERMISSIONS.operatorsManage },
  { id: "audit", path: "/console/audit", label: "Audit", permission: PERMISSIONS.auditRead },
] as const satisfies readonly ConsoleRoute[];

export type ConsoleRouteId = (typeof CONSOLE_ROUTES)[number]["id"];

export function consoleRoute(id: ConsoleRouteId): ConsoleRoute {
  return CONSOLE_ROUTES.find((r) => r.id === id)!;
}

/** What the navigation shows: plain data, so the shell component needs nothing from lib/. */
export function consoleNavigation(): Array<{ href: string; label: string }> {
  return CONSOLE_ROUTES.map((r) => ({ href: r.path, label: r.label }));
}
