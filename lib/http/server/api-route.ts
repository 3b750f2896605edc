import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";
import { unstable_rethrow } from "next/navigation";
import { AppError, ValidationError, zodIssues } from "../../errors";
import { requireUser, type SessionUser } from "../../auth/server/session";
import { mapError } from "./error-mapper";
import type { Permission } from "../../auth/roles";

type RouteContext<P> = { params: Promise<P> };

interface ApiRouteOptions<P> {
  permission: Permission;
  handler: (args: { request: NextRequest; user: SessionUser; params: P }) => Promise<Response>;
}

/** Turns any error into the standard JSON body and status (see mapError), logging server-side failures. */
export function errorResponse(error: unknown, context: string): NextResponse {
  const { status, body } = mapError(error, context);
  return NextResponse.json({ error: body }, { status });
}

/** Wraps a route handler: session and permission first, then the handler; errors become JSON. */
export function apiRoute<P = Record<string, never>>({ permission, handler }: ApiRouteOptions<P>) {
  return async (request: NextRequest, context: RouteContext<P>): Promise<Response> => {
    try {
      const user = await requireUser(permission);
      return await handler({ request, user, params: await context.params });
    } catch (error) {
      unstable_rethrow(error); // redirect() and notFound() are Next's control flow, not failures
      return errorResponse(error, `${request.method} ${request.nextUrl.pathname}`);
    }
  };
}

/** Validates the query string; a mismatch is a 422 naming the parameters. */
export function parseQuery<S extends z.ZodType>(request: NextRequest, schema: S): z.infer<S> {
  const parsed = schema.safeParse(Object.fromEntries(request.nextUrl.searchParams));
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
  return parsed.data;
}

/** Validates a path or query value; a mismatch is a 422 naming the parameter. */
export function parseParam<S extends z.ZodType>(schema: S, value: unknown, name: string): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues.map((i) => ({ ...i, path: [name, ...i.path] }))));
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
