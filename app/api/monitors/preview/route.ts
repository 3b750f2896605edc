// GET /api/monitors/preview?series=&stat=&label=&windowMinutes=&graph=&version=&model=&tool=&startedBy=
// – what the series reads now over the window: the value a monitor would compare (everyone signed in).
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { monitorPreviewQuerySchema } from "@/lib/monitors/schemas";
import { monitors } from "@/lib/monitors/server/web";

export const GET = apiRoute({
  permission: "read",
  async handler({ request }) {
    return Response.json(await monitors.preview(parseQuery(request, monitorPreviewQuerySchema)));
  },
});
