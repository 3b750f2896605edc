import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { getConfig } from "@/lib/config/server/config";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Runs" };

export default async function RunsPage() {
  await requirePageUser();
  return (
    <>
      <PageHeader title="Runs" description="Every agent run is a Temporal workflow: live status, trace timeline and conversation." />
      <EmptyState title="No runs yet">
        Launch a run from an agent to see it here. Workflows started so far (such as the end-to-end check) are visible in the{" "}
        <a className="font-medium text-indigo-600 hover:underline" href={getConfig().temporal.uiUrl} target="_blank" rel="noreferrer">
          Temporal Web UI
        </a>
        .
      </EmptyState>
    </>
  );
}
