// How API key lists say times, statuses and the roles a creator may give.
// Browser-safe; one fixed format and time zone, so the server's render and the
// browser's hydration print the same text.
import { ROLES, roleWithin, type Role } from "@/lib/access/roles";
import type { ApiKeySummary } from "@/lib/api-keys/schemas";

const INSTANT = new Intl.DateTimeFormat("en-GB", { timeZone: "UTC", day: "numeric", month: "short", year: "numeric", hour: "2-digit", minute: "2-digit" });

/** An instant as "25 Nov 2026, 21:30 UTC". */
export function formatInstant(iso: string): string {
  return `${INSTANT.format(new Date(iso))} UTC`;
}

/** When the key was last used, or "never used". */
export function lastUsedText(key: Pick<ApiKeySummary, "lastUsedAt">): string {
  return key.lastUsedAt ? formatInstant(key.lastUsedAt) : "never used";
}

/** When the key expires, or "never". */
export function expiresText(key: Pick<ApiKeySummary, "expiresAt">): string {
  return key.expiresAt ? formatInstant(key.expiresAt) : "never";
}

export const STATUS_TONE = { active: "success", expired: "warning", revoked: "danger" } as const satisfies Record<ApiKeySummary["status"], string>;

/** The roles a key created by someone with `limit` may have (the server refuses any other). */
export function rolesWithin(limit: Role): Role[] {
  return ROLES.filter((role) => roleWithin(role, limit));
}
