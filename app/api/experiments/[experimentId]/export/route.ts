// GET /api/experiments/:id/export – the experiment's results as CSV (one line per item and target:
//   usage, each scorer's value/pass/detail, change against the first target), streamed page by page.
//   Read permission. Cells starting with = + - @ are prefixed so spreadsheets never run them as formulas.
import { apiRoute, parseParam } from "@/lib/http/server/api-route";
import { experimentIdSchema, MAX_RESULTS_PAGE_SIZE } from "@/lib/experiments/schemas";
import { getExperiment } from "@/lib/experiments/server/experiments";
import { getExperimentOperation } from "@/lib/experiments/server/operations";
import { csvFileName, csvHeader, csvLines } from "./csv";

export const GET = apiRoute<{ experimentId: string }>({
  permission: getExperimentOperation.permission,
  handler: async ({ params }) => {
    const experimentId = parseParam(experimentIdSchema, params.experimentId, "experimentId");
    // The first page is read before the response starts, so an unknown experiment is a 404, not a broken download.
    const first = await getExperiment(experimentId, { limit: MAX_RESULTS_PAGE_SIZE });
    const { experiment } = first;
    const encoder = new TextEncoder();
    let page: typeof first | null = first;
    let carry: Parameters<typeof csvLines>[2];
    let headerSent = false;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (!headerSent) {
          headerSent = true;
          controller.enqueue(encoder.encode(csvHeader(experiment)));
        }
        if (page === null) {
          controller.close();
          return;
        }
        const lines = csvLines(experiment, page.results, carry);
        carry = lines.carry;
        controller.enqueue(encoder.encode(lines.text));
        page = page.nextCursor === null ? null : await getExperiment(experimentId, { limit: MAX_RESULTS_PAGE_SIZE, cursor: page.nextCursor });
      },
    });
    return new Response(body, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${csvFileName(experiment)}"`,
        "cache-control": "no-store",
      },
    });
  },
});
