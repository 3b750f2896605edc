// Route/action parity (issue 15 §1): the same operation through its server
// action and through its route handler, in-process, answers in one shape so a
// test can compare the two doors: the data, or the refusal's status, code,
// message and issues; and the audit rows each door wrote.
import { expect } from "vitest";
import { NextRequest } from "next/server";
import type { Db } from "../../lib/db/prisma";
import type { AppErrorCode, ErrorBody } from "../../lib/errors";

/** The app's address: requests carry it as Origin and Host, as the browser and the server would. */
export const APP = "http://127.0.0.1:3000";

/** A JSON request as the web server hands it to a route (same-origin, JSON content type). */
export function apiRequest(method: string, path: string, body?: unknown): NextRequest {
  const headers: Record<string, string> = { host: new URL(APP).host, origin: APP };
  if (body !== undefined) headers["content-type"] = "application/json";
  const init = { method, headers, ...(body !== undefined ? { body: JSON.stringify(body), duplex: "half" } : {}) };
  return new NextRequest(`${APP}${path}`, init as ConstructorParameters<typeof NextRequest>[1]);
}

/** The second argument of a route handler. */
export const params = <P>(value: P) => ({ params: Promise.resolve(value) });

/** What one door answered. A refusal keeps what the browser sees; success keeps the data. */
export type Outcome = { ok: true; data: unknown } | { ok: false; status: number; error: ErrorBody };

// The HTTP status each code is sent with (lib/errors.ts): an action's result carries the code only.
const STATUS: Record<AppErrorCode, number> = {
  bad_request: 400,
  validation_failed: 422,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  unavailable: 503,
  timeout: 504,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  vision_not_supported: 422,
  spend_limit_reached: 402,
  internal: 500,
};

/** A route's answer as an Outcome; `unwrap` names the envelope key of the data (`{ approval }` → `approval`). */
export async function routeOutcome(response: Response, unwrap?: string): Promise<Outcome> {
  const text = await response.text();
  const body: unknown = text ? JSON.parse(text) : null;
  if (response.ok) {
    const data = unwrap && body && typeof body === "object" ? (body as Record<string, unknown>)[unwrap] : body;
    return { ok: true, data };
  }
  const error = (body as { error: ErrorBody }).error;
  expect(response.status, `the route's status matches its code ${error.code}`).toBe(STATUS[error.code]);
  return { ok: false, status: response.status, error };
}

/** A server action's result as an Outcome. */
export function actionOutcome(result: { ok: true; data: unknown } | { ok: false; error: ErrorBody }): Outcome {
  return result.ok ? { ok: true, data: result.data } : { ok: false, status: STATUS[result.error.code], error: result.error };
}

/** Both doors refused the same way: status, code, message and every issue's path and text. */
export function expectSameRefusal(route: Outcome, action: Outcome, what: string): void {
  expect(route.ok, `${what}: the route refuses (${JSON.stringify(route)})`).toBe(false);
  expect(action, `${what}: the action refuses exactly as the route does`).toEqual(route);
}

/** One audit row as the parity tests compare it. */
export interface AuditLine {
  action: string;
  actorId: string | null;
  target: string | null;
}

/** The chain's head: rows after it are the ones a step wrote. */
export async function auditHead(db: Db): Promise<number> {
  const last = await db.auditEvent.findFirst({ where: { seq: { not: null } }, orderBy: { seq: "desc" }, select: { seq: true } });
  return last?.seq ?? 0;
}

/** The audit rows written after `head`, oldest first. */
export async function auditSince(db: Db, head: number): Promise<AuditLine[]> {
  return db.auditEvent.findMany({ where: { seq: { gt: head } }, orderBy: { seq: "asc" }, select: { action: true, actorId: true, target: true } });
}

/** Runs `step` and returns what it answered with the audit rows it wrote. */
export async function audited(db: Db, step: () => Promise<Outcome>): Promise<{ outcome: Outcome; audit: AuditLine[] }> {
  const head = await auditHead(db);
  const outcome = await step();
  return { outcome, audit: await auditSince(db, head) };
}
