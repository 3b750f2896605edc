// GET /api/datasets/:datasetId/export?version= – one version (default: the newest) as JSON Lines, one item a line
//   ({ id, position, input, expected, tape, tags, source }), downloaded as <name>-v<version>.jsonl. Imports back as JSONL.
import { apiRoute } from "@/lib/http/server/api-route";
import { getDb } from "@/lib/db/server/db";
import { exportDatasetSchema } from "@/lib/datasets/schemas";
import { exportJsonl } from "@/lib/datasets/server/items";
import { ValidationError, zodIssues } from "@/lib/errors";

export const GET = apiRoute<{ datasetId: string }>({
  permission: "read",
  async handler({ request, params }) {
    const version = request.nextUrl.searchParams.get("version");
    const parsed = exportDatasetSchema.safeParse({ datasetId: params.datasetId, ...(version ? { version } : {}) });
    if (!parsed.success) throw new ValidationError(zodIssues(parsed.error.issues));
    const file = await exportJsonl(getDb(), parsed.data);
    const filename = `${file.name.replace(/[^A-Za-z0-9._-]+/g, "-")}-v${file.version}.jsonl`;
    return new Response(file.body, { headers: { "Content-Type": "application/x-ndjson; charset=utf-8", "Content-Disposition": `attachment; filename="${filename}"`, "Cache-Control": "no-store" } });
  },
});
