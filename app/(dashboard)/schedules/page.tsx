import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { schedules } from "@/lib/schedules/server/web";
import { launchableAgents } from "@/lib/runs/server/launch";
import { PageHeader } from "@/components/ui/page-header";
import { GraphFilterNote, triggersPreset } from "@/components/triggers/graph-filter";
import { SchedulesPage } from "./schedules-client";

export const metadata: Metadata = { title: "Schedules" };
export const dynamic = "force-dynamic";

export default async function SchedulesRoute({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser("read");
  const canManage = can(user.role, "runs:launch");
  const preset = triggersPreset(await searchParams);
  const [list, graphs] = await Promise.all([schedules.list(preset?.graph), canManage ? launchableAgents() : Promise.resolve([])]);
  return (
    <>
      <PageHeader
        title="Schedules"
        description="A schedule starts runs of a saved agent on a cron or every N seconds, as its owner, through a Temporal Schedule: it survives restarts, skips or queues a firing while the previous run works, and pauses itself after failures in a row."
      />
      {preset ? <GraphFilterNote graph={preset.graph} allHref="/schedules" what="schedules" /> : null}
      <SchedulesPage schedules={list} graphs={graphs} canManage={canManage} preset={preset ?? undefined} />
    </>
  );
}
