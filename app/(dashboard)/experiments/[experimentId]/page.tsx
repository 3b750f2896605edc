import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { requirePageUser } from "@/lib/auth/server/session";
import { can } from "@/lib/access/roles";
import { EXPERIMENT_ID_PATTERN } from "@/lib/experiments/schemas";
import { ExperimentNotFound, getExperiment } from "@/lib/experiments/server/experiments";
import { readAllResults } from "@/components/experiments/compare-load";
import { ExperimentClient } from "./experiment-client";

export const metadata: Metadata = { title: "Experiment" };
export const dynamic = "force-dynamic";

/** /experiments/:id — progress, summary with confidence intervals, and the compare table (item × target). */
export default async function ExperimentPage({ params }: { params: Promise<{ experimentId: string }> }) {
  const user = await requirePageUser("read");
  const { experimentId } = await params;
  if (!EXPERIMENT_ID_PATTERN.test(experimentId)) notFound();
  const initial = await readAllResults((cursor, limit) => getExperiment(experimentId, { cursor, limit })).catch((error: unknown) => {
    if (error instanceof ExperimentNotFound) notFound();
    throw error;
  });
  return <ExperimentClient initial={initial} mayCancel={can(user.role, "runs:launch")} />;
}
