import "server-only";
// The API key operations, one each (schema, permission, act and audit in
// api-keys.ts), from which /api/api-keys (and next, the account and admin
// pages' server actions) are built.
import { operation } from "../../http/server/operation";
import { createApiKeySchema, listApiKeysSchema, revokeApiKeySchema } from "../schemas";
import { createApiKey, listApiKeys, revokeApiKey } from "./api-keys";

/** Any signed-in user creates a personal key (role ≤ theirs); admins also service keys. Never with an API key: a leaked key must not mint others. */
export const createApiKeyOperation = operation({
  name: "create-api-key",
  permission: "read",
  input: createApiKeySchema,
  sessionOnly: true,
  run: ({ input, user }) => createApiKey(user, input),
});

/** Your own keys; an admin sees every key. */
export const listApiKeysOperation = operation({
  name: "list-api-keys",
  permission: "read",
  input: listApiKeysSchema,
  run: async ({ user }) => ({ keys: await listApiKeys(user) }),
});

/** Revokes your own key; an admin any key. */
export const revokeApiKeyOperation = operation({
  name: "revoke-api-key",
  permission: "read",
  input: revokeApiKeySchema,
  run: ({ input, user }) => revokeApiKey(user, input),
});
