import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { PageHeader } from "@/components/ui/page-header";
import { RunDialog } from "@/components/runs/run-dialog";
import { launchableAgents } from "@/lib/runs/server/launch";
import { RunsClient } from "./runs-client";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  const user = await requirePageUser();
  const canLaunch = can(user.role, "runs:launch");
  const agents = canLaunch ? await launchableAgents() : [];
  return (
    <>
      <PageHeader
        title="Runs"
        description="Every agent run is a Temporal workflow; its trace, conversation and usage are kept in the run ledger."
        actions={canLaunch && agents.length ? <RunDialog agents={agents} label="New run" /> : null}
      />
      <RunsClient />
    </>
  );
}
