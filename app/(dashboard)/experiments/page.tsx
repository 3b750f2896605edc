import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { listExperiments } from "@/lib/experiments/server/experiments";
import { experimentFormOptions } from "@/lib/experiments/server/form-options";
import { PageHeader } from "@/components/ui/page-header";
import { ExperimentsPage } from "./experiments-client";

export const metadata: Metadata = { title: "Experiments" };
export const dynamic = "force-dynamic";

export default async function ExperimentsRoute() {
  const user = await requirePageUser("read");
  const mayLaunch = can(user.role, "runs:launch");
  const [{ experiments }, options] = await Promise.all([listExperiments(50), mayLaunch ? experimentFormOptions(user.id) : Promise.resolve(null)]);
  return (
    <>
      <PageHeader
        title="Experiments"
        description="Run a dataset against graph versions: tools answer from each item's recorded results or a stub, gated calls never reach the inbox, and every run is scored."
      />
      <ExperimentsPage initial={experiments} options={options} />
    </>
  );
}
