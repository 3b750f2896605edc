import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";
import { AppError, toErrorBody, ValidationError, zodIssues } from "../../errors";
import { requireUser, type SessionUser } from "../../auth/server/session";
import { EngineUnavailable } from "../../engine/errors";
import type { Permission } from "../../auth/roles";

type RouteContext<P> = { params: Promise<P> };

interface ApiRouteOptions<P> {
  permission: Permission;
  handler: (args: { request: NextRequest; user: SessionUser; params: P }) => Promise<Response>;
}

/** Temporal down or unreachable (gRPC UNAVAILABLE / connection errors) is a 503, not a bug. */
function isEngineUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  return code === 14 || error.name === "ConnectionError" || /UNAVAILABLE|ECONNREFUSED|failed to connect/i.test(error.message);
}

/** Logs unexpected errors with context and turns every error into the standard JSON body. */
export function errorResponse(rawError: unknown, context: string): NextResponse {
  const error = isEngineUnavailable(rawError) ? new EngineUnavailable() : rawError;
  if (error !== rawError) console.error(`${context}:`, rawError);
  const { status, body } = toErrorBody(error);
  if (!(error instanceof AppError)) console.error(`${context}:`, error);
  return NextResponse.json({ error: body }, { status });
}

/** Wraps a route handler: session and permission first, then the handler; errors become JSON. */
export function apiRoute<P = Record<string, never>>({ permission, handler }: ApiRouteOptions<P>) {
  return async (request: NextRequest, context: RouteContext<P>): Promise<Response> => {
    try {
      const user = await requireUser(permission);
      return await handler({ request, user, params: await context.params });
    } catch (error) {
      return errorResponse(error, `${request.method} ${request.nextUrl.pathname}`);
    }
  };
}

/** Validates a path or query value; a mismatch is a 422 naming the parameter. */
export function parseParam<S extends z.ZodType>(schema: S, value: unknown, name: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError([{ path: name, message: parsed.error.issues[0]?.message ?? "invalid" }]);
  return parsed.data;
}

/** Reads and validates a JSON body: malformed JSON → 400, schema mismatch → 422 with paths. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  let raw: unknown;
  try {
    raw = await request.json();
  } catch {
    throw new AppError("bad_request", 400, "The request body is not valid JSON");
  }
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
  return parsed.data;
}
