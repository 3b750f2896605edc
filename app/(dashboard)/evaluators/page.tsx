import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { listEvaluators } from "@/lib/online-eval/server/operations";
import { listAgents } from "@/lib/agents/server/store";
import { getDb } from "@/lib/db/server/db";
import { PageHeader } from "@/components/ui/page-header";
import { EvaluatorsClient } from "./evaluators-client";

export const metadata: Metadata = { title: "Evaluators" };
export const dynamic = "force-dynamic";

export default async function EvaluatorsPage() {
  const user = await requirePageUser("read");
  const [evaluators, graphs] = await Promise.all([listEvaluators(user, {}), listAgents(getDb()).then((agents) => agents.map((a) => a.name))]);
  return (
    <>
      <PageHeader
        title="Evaluators"
        description="Online evaluators score a graph's live runs after they end, off the run's path: a sample of them, after a delay, within a daily spend cap. Scores show on the run, in the runs list and on the overview, and monitors can watch an evaluator's mean."
      />
      <EvaluatorsClient evaluators={evaluators} graphs={graphs} canManage={can(user.role, "agents:edit")} />
    </>
  );
}
