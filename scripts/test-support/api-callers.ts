// Programs calling the real route handlers with their own API keys, over a
// fresh migrated and seeded SQLite database: the arrangement of the security
// tests that attack the API as a viewer or builder holding a key would (issue
// 36). The caller's test file still mocks next/headers (Auth.js reads it; a key
// request never does, but the module must load outside Next).
import { randomUUID } from "node:crypto";
import { inject } from "vitest";
import { NextRequest } from "next/server";
import { createDb, type Db } from "../../lib/db/prisma";
import { applyMigrations } from "../db/migrate";
import { freshSqlite, type TestDatabase } from "./databases";
import { seedDatabase } from "../../lib/seed/seed";
import type { Role } from "../../lib/access/roles";

export const ORIGIN = "http://127.0.0.1:3000";

/** A user with a personal key of their own role. */
export interface KeyHolder {
  id: string;
  email: string;
  role: Role;
  token: string;
  apiKeyId: string;
}

export interface ApiCallers {
  db: Db;
  /** A new enabled user with a key (no password: keys only). */
  holder(role: Role, label?: string): Promise<KeyHolder>;
  stop(): Promise<void>;
}

const holderGlobal = globalThis as typeof globalThis & { zapDb?: unknown };

/**
 * Fresh database, migrated and seeded (demo users, demo graphs), installed as the process's database for the
 * routes; the routes' Temporal client reaches the suite's dev server, on a task queue of this file's own that no
 * worker polls.
 */
export async function startApiCallers(): Promise<ApiCallers> {
  const database: TestDatabase = await freshSqlite();
  await applyMigrations(database.url);
  process.env.DATABASE_URL = database.url;
  process.env.TEMPORAL_ADDRESS = inject("temporalAddress");
  process.env.TEMPORAL_TASK_QUEUE = `api-callers-${randomUUID().slice(0, 8)}`;
  process.env.AUTH_SECRET ??= "security-test-secret-0123456789-abcdefghij";
  const db = createDb(database.url);
  holderGlobal.zapDb = db;
  await seedDatabase(db, { demo: true });
  const { createApiKey } = await import("../../lib/api-keys/server/api-keys");
  return {
    db,
    async holder(role, label = role) {
      const email = `${label}-${randomUUID().slice(0, 8)}@example.com`;
      const user = await db.user.create({ data: { email, name: email, role, passwordHash: "not-a-hash" } });
      const created = await createApiKey({ id: user.id, role }, { name: `${label} key`, role }, db);
      return { id: user.id, email, role, token: created.token, apiKeyId: created.key.id };
    },
    async stop() {
      delete holderGlobal.zapDb;
      await db.$disconnect();
      await database.drop();
    },
  };
}

/** A request as a program sends it: its key, JSON, no cookie, no Origin. */
export function keyRequest(token: string, path: string, init: { method?: string; body?: unknown } = {}): NextRequest {
  const headers: Record<string, string> = { host: "127.0.0.1:3000", authorization: `Bearer ${token}` };
  if (init.body !== undefined) headers["content-type"] = "application/json";
  return new NextRequest(`${ORIGIN}${path}`, { method: init.method ?? "GET", headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
}

/** The route context of a handler with these path parameters. */
export function routeParams<P extends Record<string, string>>(params: P): { params: Promise<P> } {
  return { params: Promise.resolve(params) };
}

/** The `error` of a JSON error answer. */
export async function errorOf(response: Response): Promise<{ code: string; message: string; issues?: { path: string; message: string }[] }> {
  return ((await response.clone().json()) as { error: { code: string; message: string; issues?: { path: string; message: string }[] } }).error;
}
