import type { Metadata } from "next";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { getDb } from "@/lib/db/server/db";
import { listDatasets } from "@/lib/datasets/server/store";
import { PageHeader } from "@/components/ui/page-header";
import { DatasetsPage } from "./datasets-client";

export const metadata: Metadata = { title: "Datasets" };
export const dynamic = "force-dynamic";

export default async function DatasetsRoute({ searchParams }: { searchParams: Promise<{ archived?: string }> }) {
  const user = await requirePageUser("read");
  const showArchived = (await searchParams).archived === "1";
  const datasets = await listDatasets(getDb(), showArchived);
  return (
    <>
      <PageHeader
        title="Datasets"
        description="Tasks with their expected answers and recorded tool results, from runs (select them in the runs list), approval decisions or a CSV / JSONL file. Every change makes a new version; experiments run over one version."
      />
      <DatasetsPage datasets={datasets} canEdit={can(user.role, "agents:edit")} showArchived={showArchived} />
    </>
  );
}
