// GET /api/experiments/:id?limit=&cursor= – the experiment (targets, scorers, thresholds, status, progress)
//   and a page of its results in unit order: { experiment, results, nextCursor }. The page polls it while running.
import { apiRoute, parseParam, parseQuery } from "@/lib/http/server/api-route";
import { experimentIdSchema, getExperimentSchema } from "@/lib/experiments/schemas";
import { getExperimentOperation } from "@/lib/experiments/server/operations";

const pageSchema = getExperimentSchema.omit({ experimentId: true });

export const GET = apiRoute<{ experimentId: string }>({
  permission: getExperimentOperation.permission,
  handler: async ({ request, params, user }) => {
    const page = parseQuery(request, pageSchema);
    const experimentId = parseParam(experimentIdSchema, params.experimentId, "experimentId");
    return Response.json(await getExperimentOperation.run({ input: { ...page, experimentId }, user }), { headers: { "Cache-Control": "no-store" } });
  },
});
