import "server-only";
import type { z } from "zod";
import { AppError, toErrorBody, ValidationError, zodIssues, type ErrorBody } from "../../errors";
import { requireUser, type SessionUser } from "./session";
import type { Permission } from "../roles";

/** What every server action returns: data, or an error safe to show. */
export type ActionResult<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/**
 * Builds a server action that checks the session and the permission, validates
 * its input with zod, and never throws to the browser (unknown errors are logged
 * and reported generically).
 */
export function defineAction<S extends z.ZodType, T>(options: {
  name: string;
  permission: Permission;
  input: S;
  handler: (args: { input: z.infer<S>; user: SessionUser }) => Promise<T>;
}): (raw: unknown) => Promise<ActionResult<T>> {
  return async (raw: unknown) => {
    try {
      const user = await requireUser(options.permission);
      const parsed = options.input.safeParse(raw);
      if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
      return { ok: true, data: await options.handler({ input: parsed.data, user }) };
    } catch (error) {
      if (!(error instanceof AppError)) console.error(`action ${options.name}:`, error);
      return { ok: false, error: toErrorBody(error).body };
    }
  };
}
