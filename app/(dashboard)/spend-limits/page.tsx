import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getDb } from "@/lib/db/server/db";
import { listSpendLimits } from "@/lib/spend-limits/server/store";
import { spendTargets } from "@/lib/spend-limits/server/targets";
import { PageHeader } from "@/components/ui/page-header";
import { SpendLimitsPage } from "./spend-limits-client";

export const metadata: Metadata = { title: "Spend limits" };
export const dynamic = "force-dynamic";

export default async function SpendLimitsRoute() {
  const user = await requirePageUser("read");
  const isAdmin = can(user.role, "policy:manage");
  const canManage = isAdmin || can(user.role, "agents:edit");
  const [limits, targets] = await Promise.all([listSpendLimits(getDb()), canManage ? spendTargets({ people: isAdmin }) : Promise.resolve({ graphs: [], users: [], apiKeys: [] })]);
  return (
    <>
      <PageHeader
        title="Spend limits"
        description="The most the workspace, a graph, a user or an API key may spend on model calls in a UTC day or month. Once a limit is reached, new runs of its scope are refused (from the browser, the API, the CLI, schedules and webhooks) until the window ends or the limit is raised. Runs already working are not stopped. Usage on models without a price is shown apart and not counted."
      />
      <SpendLimitsPage limits={limits} targets={targets} canManage={canManage} isAdmin={isAdmin} />
    </>
  );
}
