import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getDb } from "@/lib/db/server/db";
import { listAgents } from "@/lib/agents/server/store";
import { DEMO_AGENT_GRAPHS } from "@/lib/agents/demo";
import { PageHeader } from "@/components/ui/page-header";
import { AgentsList } from "./agents-client";

export const metadata: Metadata = { title: "Agents" };

export default async function AgentsPage() {
  const user = await requirePageUser();
  const agents = await listAgents(getDb());
  return (
    <>
      <PageHeader title="Agents" description="Agent graphs: agents, their sub-agents, tools and approval rules, saved as immutable versions." />
      <AgentsList agents={agents} canEdit={can(user.role, "agents:edit")} templates={DEMO_AGENT_GRAPHS.map((d) => ({ name: d.name, description: d.description }))} />
    </>
  );
}
