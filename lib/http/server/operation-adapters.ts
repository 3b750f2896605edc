import "server-only";
// Builds the two doors of an operation (operation.ts): its server action and its
// route handler, with the same schema, permission and function.
import { z } from "zod";
import { ValidationError, zodIssues } from "../../errors";
import { apiRoute, bodyText, parseJsonBody } from "./api-route";
import { defineAction, type ActionResult } from "./action";
import type { Operation } from "./operation";
import { REPORT_INPUT } from "../../union-issues";

/** The operation as a server action; `after` runs on success (e.g. revalidatePath for the pages that show it). */
export function operationAction<S extends z.ZodType, T>(op: Operation<S, T>, after?: () => void): (raw: unknown) => Promise<ActionResult<T>> {
  return defineAction({
    name: op.name,
    permission: op.permission,
    input: op.input,
    allowMustChangePassword: op.allowMustChangePassword,
    handler: async (args) => {
      const result = await op.run(args);
      after?.();
      return result;
    },
  });
}

const jsonObject = z.record(z.string(), z.unknown(), { error: "send a JSON object" });

/** A route without a body refuses one that says anything (an empty object is nothing), naming each key it ignores. */
async function noBody(request: Request): Promise<Record<string, never>> {
  const text = (await bodyText(request)).trim();
  if (!text) return {};
  let sent: unknown;
  try {
    sent = JSON.parse(text);
  } catch {
    throw new ValidationError([{ path: "", message: "this route takes no body" }]);
  }
  const keys = sent && typeof sent === "object" && !Array.isArray(sent) ? Object.keys(sent) : null;
  if (keys?.length === 0) return {};
  throw new ValidationError(keys ? keys.map((key) => ({ path: key, message: `Unrecognized key: "${key}" (this route takes no body)` })) : [{ path: "", message: "this route takes no body" }]);
}

/**
 * The operation as a route handler. `path` maps the route's parameters to
 * input fields (`{ runId: params.runId }`); a body that names one of them too
 * is refused, so the path is the only source. Without `body`, the request has
 * none and the path is the whole input.
 */
export function operationRoute<P = Record<string, never>, S extends z.ZodType = z.ZodType, T = unknown>(
  op: Operation<S, T>,
  options: {
    path?: (params: P) => Record<string, unknown>;
    body?: boolean;
    /** The body is this input field as a whole (`PATCH /api/mcp-servers/:name` sends the action's `patch`). */
    bodyAs?: string;
    headers?: Record<string, string>;
    /** 204 sends no body. */
    status?: number;
    /** The JSON the route answers with (default: the operation's result as it is). */
    respond?: (result: T) => unknown;
    maxBodyBytes?: number;
  } = {},
) {
  const { path, body = true, bodyAs, headers, status = 200, respond = (result: T) => result, maxBodyBytes } = options;
  return apiRoute<P>({
    permission: op.permission,
    allowMustChangePassword: op.allowMustChangePassword,
    sessionOnly: op.sessionOnly,
    maxBodyBytes,
    async handler({ request, user, params }) {
      const sent = body ? await parseJsonBody(request, jsonObject) : await noBody(request);
      const fromBody = bodyAs ? { [bodyAs]: sent } : sent;
      const fromPath = path?.(params) ?? {};
      const twice = Object.keys(fromPath).filter((key) => key in fromBody);
      if (twice.length) throw new ValidationError(twice.map((key) => ({ path: key, message: "given in the path; leave it out of the body" })));
      const parsed = op.input.safeParse({ ...fromBody, ...fromPath }, REPORT_INPUT);
      if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
      const result = await op.run({ input: parsed.data, user });
      return status === 204 ? new Response(null, { status, headers }) : Response.json(respond(result), { status, headers });
    },
  });
}

/**
 * A read operation as a GET route: the query string (empty values dropped) and the path
 * parameters are its input, parsed by the same schema as its server action; a parameter
 * given in both is refused. `respond` answers otherwise than with the result as JSON
 * (a download, say).
 */
export function operationQueryRoute<P, S extends z.ZodType, T>(op: Operation<S, T>, path: (params: P) => Record<string, unknown> = () => ({}), respond?: (result: T) => Response) {
  return apiRoute<P>({
    permission: op.permission,
    async handler({ request, user, params }) {
      const query = Object.fromEntries([...request.nextUrl.searchParams].filter(([, value]) => value !== ""));
      const fromPath = path(params);
      const twice = Object.keys(fromPath).filter((key) => key in query);
      if (twice.length) throw new ValidationError(twice.map((key) => ({ path: key, message: "given in the path; leave it out of the query" })));
      const parsed = op.input.safeParse({ ...query, ...fromPath }, REPORT_INPUT);
      if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
      const result = await op.run({ input: parsed.data, user });
      return respond ? respond(result) : Response.json(result, { headers: { "Cache-Control": "no-store" } });
    },
  });
}
