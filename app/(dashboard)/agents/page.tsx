import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/auth/roles";
import { PageHeader } from "@/components/ui/page-header";
import { EmptyState } from "@/components/ui/empty-state";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage() {
  const user = await requirePageUser();
  return (
    <>
      <PageHeader title="Agents" description="Agent graphs: agents, their sub-agents, tools and approval rules, saved as immutable versions." />
      <EmptyState title="No agents yet">
        {can(user.role, "agents:edit")
          ? "The agent designer arrives with the agent engine. Until then, the overview page's end-to-end check proves Temporal, the worker and the database are wired up."
          : "Builders design agents here. Ask an admin for the builder role if you need to create one."}
      </EmptyState>
    </>
  );
}
