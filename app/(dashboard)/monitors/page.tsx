import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { monitors } from "@/lib/monitors/server/web";
import { getConfig } from "@/lib/config/server/config";
import { PageHeader } from "@/components/ui/page-header";
import { MonitorsPage } from "./monitors-client";

export const metadata: Metadata = { title: "Monitors" };
export const dynamic = "force-dynamic";

export default async function MonitorsRoute() {
  const user = await requirePageUser("read");
  const [list, alerts] = await Promise.all([monitors.list(), monitors.alerts({ limit: 50 })]);
  return (
    <>
      <PageHeader
        title="Monitors"
        description="A threshold on a dashboard series raises an alert on the overview and through the webhook, and resolves it when the series recovers. The worker evaluates every enabled monitor once a minute."
      />
      {/* The worker posts alerts only when a webhook is configured: without one, "not sent" is not owed. */}
      <MonitorsPage monitors={list} alerts={alerts} canManage={can(user.role, "monitors:manage")} webhookConfigured={getConfig().webhook !== null} />
    </>
  );
}
