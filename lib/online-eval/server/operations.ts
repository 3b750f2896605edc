import "server-only";
// The operations on online evaluators, one each (schema, permission, act and
// audit in store.ts), from which the /evaluators page's server actions, the
// /api/evaluators routes and the client are built. Managing an evaluator decides
// how a graph's runs are judged (and may spend on a judge model), so it takes the
// permission that edits graphs (builders and admins); everyone signed in reads.
import { z } from "zod";
import { can } from "../../access/roles";
import { ForbiddenError, ValidationError, zodIssues } from "../../errors";
import { REPORT_INPUT } from "../../union-issues";
import { operation, type Operation } from "../../http/server/operation";
import type { SessionUser } from "../../auth/server/session";
import { runIdInputSchema } from "../../runs/schemas";
import { backfillInput, createEvaluatorInput, evaluatorIdInput, updateEvaluatorInput } from "../schemas";
import { createEvaluator as create, deleteEvaluator as remove, evaluationsOfRun as ofRun, getEvaluator as get, listBackfills as backfills, listEvaluators as list, startBackfill as backfill, updateEvaluator as update } from "./store";
import { evaluatorDeps } from "./web";

const noInput = z.strictObject({});

export const listEvaluatorsOperation = operation({
  name: "list-evaluators",
  permission: "read",
  input: noInput,
  run: () => list(evaluatorDeps()),
});

export const getEvaluatorOperation = operation({
  name: "get-evaluator",
  permission: "read",
  input: evaluatorIdInput,
  run: ({ input }) => get(evaluatorDeps(), input.id),
});

export const createEvaluatorOperation = operation({
  name: "create-evaluator",
  permission: "agents:edit",
  input: createEvaluatorInput,
  run: ({ input, user }) => create(evaluatorDeps(), input, user),
});

export const updateEvaluatorOperation = operation({
  name: "update-evaluator",
  permission: "agents:edit",
  input: updateEvaluatorInput,
  run: ({ input, user }) => update(evaluatorDeps(), input, user),
});

export const deleteEvaluatorOperation = operation({
  name: "delete-evaluator",
  permission: "agents:edit",
  input: evaluatorIdInput,
  run: ({ input, user }) => remove(evaluatorDeps(), input.id, user),
});

export const startBackfillOperation = operation({
  name: "start-evaluator-backfill",
  permission: "agents:edit",
  input: backfillInput,
  run: ({ input, user }) => backfill(evaluatorDeps(), input, user),
});

export const listBackfillsOperation = operation({
  name: "list-evaluator-backfills",
  permission: "read",
  input: evaluatorIdInput,
  run: ({ input }) => backfills(evaluatorDeps(), input.id),
});

export const evaluationsOfRunOperation = operation({
  name: "evaluations-of-run",
  permission: "read",
  input: runIdInputSchema,
  run: ({ input }) => ofRun(evaluatorDeps(), input.runId),
});

/**
 * An operation called directly by server code (a page, a server action) as `op(actor, rawInput)`: the same
 * schema, permission and function the route uses, so the doors cannot drift. Bad input → 422, a role
 * without the permission → 403.
 */
function direct<S extends z.ZodType, T>(op: Operation<S, T>): (actor: SessionUser, raw: unknown) => Promise<T> {
  return async (actor, raw) => {
    if (!can(actor.role, op.permission)) throw new ForbiddenError();
    const parsed = op.input.safeParse(raw ?? {}, REPORT_INPUT);
    if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
    return op.run({ input: parsed.data, user: actor });
  };
}

export const listEvaluators = direct(listEvaluatorsOperation);
export const getEvaluator = direct(getEvaluatorOperation);
export const createEvaluator = direct(createEvaluatorOperation);
export const updateEvaluator = direct(updateEvaluatorOperation);
export const deleteEvaluator = direct(deleteEvaluatorOperation);
export const startBackfill = direct(startBackfillOperation);
export const listBackfills = direct(listBackfillsOperation);
export const evaluationsOfRun = direct(evaluationsOfRunOperation);
