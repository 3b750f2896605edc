import "server-only";
import { NextResponse, type NextRequest } from "next/server";
import type { z } from "zod";
import { unstable_rethrow } from "next/navigation";
import { AppError, ForbiddenError, RateLimitedError, ValidationError, zodIssues } from "../../errors";
import { checkUser, requireUser, type SessionUser } from "../../auth/server/session";
import { authenticateApiKey, bearerToken } from "../../auth/server/api-keys";
import { withApiKey } from "../../audit/context";
import { mapError } from "./error-mapper";
import { REPORT_INPUT } from "../../union-issues";
import { DEFAULT_MAX_BODY_BYTES, guardMutatingRequest, isMutating, readBodyText } from "./request-guard";
import type { Permission } from "../../access/roles";

type RouteContext<P> = { params: Promise<P> };

interface ApiRouteOptions<P> {
  permission: Permission;
  /** Largest request body accepted, in bytes (default 256 KiB); larger → 413 before the handler runs. */
  maxBodyBytes?: number;
  /** Only for replacing a one-time password: every other route refuses a user who still holds one. */
  allowMustChangePassword?: boolean;
  /** Only a signed-in session, never an API key (creating keys, changing the password): 403 with a key. */
  sessionOnly?: boolean;
  handler: (args: { request: NextRequest; user: SessionUser; params: P }) => Promise<Response>;
}

/** Turns any error into the standard JSON body and status (see mapError), logging server-side failures. */
export function errorResponse(error: unknown, context: string): NextResponse {
  const { status, body } = mapError(error, context);
  const headers: Record<string, string> = error instanceof RateLimitedError ? { "Retry-After": String(Math.max(1, Math.ceil(error.retryAfterSeconds))) } : {};
  return NextResponse.json({ error: body }, { status, headers });
}

// The body the wrapper already read (capped) for a request, so parseJsonBody never reads a stream twice.
const readBodies = new WeakMap<Request, string>();

/**
 * Wraps a route handler: a mutating request must come from the app's own
 * origin as JSON within the body cap (request-guard.ts), then session and
 * permission, then the handler; errors become JSON.
 *
 * A request with `Authorization: Bearer zap_…` is a program's: the key alone
 * says who calls (lib/auth/server/api-keys.ts; its cookies are not read), it
 * needs no Origin (a page on another site cannot set that header without the
 * CORS preflight this app never answers), and every audit row it writes names
 * the key (lib/audit/context.ts).
 */
export function apiRoute<P = Record<string, never>>({ permission, maxBodyBytes = DEFAULT_MAX_BODY_BYTES, allowMustChangePassword = false, sessionOnly = false, handler }: ApiRouteOptions<P>) {
  return async (request: NextRequest, context: RouteContext<P>): Promise<Response> => {
    try {
      const token = bearerToken(request.headers);
      if (token !== null) {
        const user = checkUser(await authenticateApiKey(token), permission, { allowMustChangePassword });
        if (sessionOnly) throw new ForbiddenError("This cannot be done with an API key: sign in");
        if (isMutating(request.method)) readBodies.set(request, await guardMutatingRequest(request, maxBodyBytes, { sameOrigin: false }));
        const params = await context.params;
        return await withApiKey({ apiKeyId: user.apiKeyId, actorId: user.id }, () => handler({ request, user, params }));
      }
      if (isMutating(request.method)) readBodies.set(request, await guardMutatingRequest(request, maxBodyBytes));
      const user = await requireUser(permission, { allowMustChangePassword });
      return await handler({ request, user, params: await context.params });
    } catch (error) {
      unstable_rethrow(error); // redirect() and notFound() are Next's control flow, not failures
      return errorResponse(error, `${request.method} ${request.nextUrl.pathname}`);
    }
  };
}

/** Validates the query string; a mismatch is a 422 naming the parameters. */
export function parseQuery<S extends z.ZodType>(request: NextRequest, schema: S): z.infer<S> {
  const parsed = schema.safeParse(Object.fromEntries(request.nextUrl.searchParams), REPORT_INPUT);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
  return parsed.data;
}

/** Validates a path or query value; a mismatch is a 422 naming the parameter. */
export function parseParam<S extends z.ZodType>(schema: S, value: unknown, name: string): z.infer<S> {
  const parsed = schema.safeParse(value, REPORT_INPUT);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues.map((i) => ({ ...i, path: [name, ...i.path] }))));
  return parsed.data;
}

/** The request's body text (capped), read once whoever asks first. */
export async function bodyText(request: Request): Promise<string> {
  return readBodies.get(request) ?? (await readBodyText(request, DEFAULT_MAX_BODY_BYTES));
}

/** Reads (capped) and validates a JSON body: malformed JSON → 400, schema mismatch → 422 with paths. */
export async function parseJsonBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.infer<S>> {
  const text = await bodyText(request);
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    throw new AppError("bad_request", 400, "The request body is not valid JSON");
  }
  const parsed = schema.safeParse(raw, REPORT_INPUT);
  if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
  return parsed.data;
}
