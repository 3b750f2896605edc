// How API key lists say statuses and the roles a creator may give. Their
// times are the product's one date-time format (components/ui/date-time.tsx).
import { ROLES, roleWithin, type Role } from "@/lib/access/roles";
import type { ApiKeySummary } from "@/lib/api-keys/schemas";

export const STATUS_TONE = { active: "success", expired: "warning", revoked: "danger" } as const satisfies Record<ApiKeySummary["status"], string>;

/** The roles a key created by someone with `limit` may have (the server refuses any other). */
export function rolesWithin(limit: Role): Role[] {
  return ROLES.filter((role) => roleWithin(role, limit));
}
