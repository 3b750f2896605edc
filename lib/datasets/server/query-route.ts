import "server-only";
// GET routes of dataset reads: the query string and the path parameters are the
// operation's input, parsed by the same schema as its server action.
import type { z } from "zod";
import { apiRoute } from "../../http/server/api-route";
import type { Operation } from "../../http/server/operation";
import { ValidationError, zodIssues } from "../../errors";
import { REPORT_INPUT } from "../../union-issues";

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
