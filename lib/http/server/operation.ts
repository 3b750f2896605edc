import "server-only";
// One operation, every door (issue 15 §1): an operation declares its input
// schema, the permission it needs and the function that acts and audits, once,
// in lib/<domain>/server. The server action and the route handler are built
// from it (operation-adapters.ts), so they cannot drift apart: the route merges
// its path parameters into the body and parses the result with the action's schema.
// The adapters are in operation-adapters.ts: this module stays light, so a
// domain module that declares operations does not load the session layer.
import type { z } from "zod";
import type { Permission } from "../../access/roles";
import type { SessionUser } from "../../auth/server/session";

export interface Operation<S extends z.ZodType, T> {
  /** Names the action in logs (`action <name>`). */
  name: string;
  permission: Permission;
  input: S;
  /** Only for replacing a one-time password (see requireUser). */
  allowMustChangePassword?: boolean;
  /** Only with a signed-in session: the route refuses an API key (403). */
  sessionOnly?: boolean;
  /** Acts and writes the audit row. */
  run: (args: { input: z.infer<S>; user: SessionUser }) => Promise<T>;
}

/** Declares an operation (identity: it only fixes the types). */
export function operation<S extends z.ZodType, T>(op: Operation<S, T>): Operation<S, T> {
  return op;
}
