// GET /api/monitors/alerts?state=firing|resolved&monitorId=&limit= – alerts newest first (everyone signed in; the dashboard asks for the firing ones).
import { apiRoute, parseQuery } from "@/lib/http/server/api-route";
import { alertListQuerySchema } from "@/lib/monitors/schemas";
import { monitors } from "@/lib/monitors/server/web";

export const GET = apiRoute({
  permission: "read",
  async handler({ request }) {
    return Response.json({ alerts: await monitors.alerts(parseQuery(request, alertListQuerySchema)) });
  },
});
