// Roles and what each may do. Pages, route handlers and server actions all ask
// `can(role, permission)` from here; nothing else decides access.

export const ROLES = ["viewer", "builder", "approver", "admin"] as const;
export type Role = (typeof ROLES)[number];

export const PERMISSIONS = [
  "read",
  "agents:edit",
  "runs:launch",
  "approvals:decide",
  "users:manage",
  "policy:manage",
  "mcp:manage",
  // Recomputing the audit hash chain (GET /api/audit/verify): admins only.
  "audit:verify",
  // Creating, changing and deleting monitors (alerts are read with "read").
  "monitors:manage",
] as const;
export type Permission = (typeof PERMISSIONS)[number];

const GRANTS: Record<Role, readonly Permission[]> = {
  viewer: ["read"],
  builder: ["read", "agents:edit", "runs:launch", "monitors:manage"],
  approver: ["read", "approvals:decide"],
  admin: PERMISSIONS,
};

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  viewer: "Reads agents, runs and approvals",
  builder: "Edits agents, launches runs and manages monitors",
  approver: "Decides pending approvals",
  admin: "Everything, including managing users",
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** Whether `role` grants `permission`. Unknown roles grant nothing. */
export function can(role: string | null | undefined, permission: Permission): boolean {
  return isRole(role) && GRANTS[role].includes(permission);
}

/**
 * Whether `role` grants nothing beyond `limit` (an API key's role against its
 * creator's or owner's): viewer < builder, approver < admin; builder and
 * approver are not comparable (each has a permission the other lacks).
 */
export function roleWithin(role: Role, limit: Role): boolean {
  return role === limit || limit === "admin" || role === "viewer";
}

/** The most of `role` that `limit` allows: itself when within it, else `limit` when `limit` is within it, else viewer (what builder and approver share). */
export function capRole(role: Role, limit: Role): Role {
  return roleWithin(role, limit) ? role : roleWithin(limit, role) ? limit : "viewer";
}
