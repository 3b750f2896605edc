import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import { ValidationError, zodIssues, type ErrorBody } from "../../errors";
import { mapError } from "./error-mapper";
import { REPORT_INPUT } from "../../union-issues";
import { requireUser, type SessionUser } from "../../auth/server/session";
import type { Permission } from "../../access/roles";

/** What every server action returns: data, or an error safe to show. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/**
 * Builds a server action that checks the session and the permission, validates
 * its input with zod, and never throws to the browser: errors go through the same
 * mapper as route handlers (mapError), so a code means the same in both.
 */
export function defineAction<S extends z.ZodType, T>(options: {
  name: string;
  permission: Permission;
  input: S;
  /** Only for replacing a one-time password (see requireUser). */
  allowMustChangePassword?: boolean;
  handler: (args: { input: z.infer<S>; user: SessionUser }) => Promise<T>;
}): (raw: unknown) => Promise<ActionResult<T>> {
  return async (raw: unknown) => {
    try {
      const user = await requireUser(options.permission, { allowMustChangePassword: options.allowMustChangePassword });
      const parsed = options.input.safeParse(raw, REPORT_INPUT);
      if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
      return { ok: true, data: await options.handler({ input: parsed.data, user }) };
    } catch (error) {
      unstable_rethrow(error); // redirect() and notFound() are Next's control flow, not failures
      return { ok: false, error: mapError(error, `action ${options.name}`).body };
    }
  };
}
