// API keys for programs (issue 23 §1): what the account page, the admin page
// and /api/api-keys send and get back. Browser-safe: no secrets, no server code.
import { z } from "zod";
import { ROLES, type Role } from "../access/roles";

export const API_KEY_KINDS = ["personal", "service"] as const;
export type ApiKeyKind = (typeof API_KEY_KINDS)[number];

/** The longest a key may live; none given: it never expires (revoke it when done). */
export const API_KEY_MAX_DAYS = 3650;

/**
 * A new key: a name, its role (no higher than the creator's), personal (for
 * oneself) or service (admins only), and an optional expiry (an instant in the
 * future, or a number of days from now).
 */
export const createApiKeySchema = z
  .strictObject({
    name: z.string().trim().min(1, "name is required").max(100, "name is at most 100 characters"),
    role: z.enum(ROLES, { error: `role must be one of ${ROLES.join(", ")}` }),
    kind: z.enum(API_KEY_KINDS, { error: "kind must be personal or service" }).default("personal"),
    expiresAt: z.iso.datetime({ offset: true, error: "expiresAt must be an ISO 8601 date-time, e.g. 2027-01-31T00:00:00Z" }).optional(),
    expiresInDays: z.number().int("expiresInDays must be a whole number").min(1, "expiresInDays must be at least 1").max(API_KEY_MAX_DAYS, `expiresInDays is at most ${API_KEY_MAX_DAYS}`).optional(),
  })
  .refine((v) => v.expiresAt === undefined || v.expiresInDays === undefined, { message: "give expiresAt or expiresInDays, not both", path: ["expiresInDays"] });
export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** `GET /api/api-keys`: your own keys; an admin sees every key. */
export const listApiKeysSchema = z.strictObject({});

/** `DELETE /api/api-keys/:id`. */
export const revokeApiKeySchema = z.strictObject({ id: z.string().min(1, "id is required").max(64) });
export type RevokeApiKeyInput = z.infer<typeof revokeApiKeySchema>;

/** A key as lists show it: never its secret. */
export interface ApiKeySummary {
  id: string;
  name: string;
  /** `zap_` and the first 12 characters of the secret, to recognise it. */
  prefix: string;
  kind: ApiKeyKind;
  role: Role;
  owner: { id: string; email: string };
  createdById: string | null;
  createdAt: string;
  expiresAt: string | null;
  lastUsedAt: string | null;
  revokedAt: string | null;
  status: "active" | "expired" | "revoked";
}

/** A key just created: its summary and the token, shown this once. */
export interface CreatedApiKey {
  key: ApiKeySummary;
  token: string;
}
