"use client";
// The experiments page: the list (polled while any experiment runs) and, for
// builders and admins, the "New experiment" form; a started experiment opens
// its own page (progress, scores, regressions).
import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useQuery } from "@tanstack/react-query";
import type { ExperimentSummary, StartExperimentInput } from "@/lib/experiments/schemas";
import type { ExperimentFormOptions } from "@/lib/experiments/server/form-options";
import { startExperimentAction } from "@/lib/actions/start-experiment";
import { getJson } from "@/lib/http/client";
import type { ErrorBody } from "@/lib/errors";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { ExperimentsTable } from "@/components/experiments/list-experiments";
import { NewExperimentForm } from "@/components/experiments/new-experiment-form";

function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

export function ExperimentsPage({ initial, options }: { initial: ExperimentSummary[]; options: ExperimentFormOptions | null }) {
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const list = useQuery({
    queryKey: ["experiments"],
    queryFn: ({ signal }) => getJson<{ experiments: ExperimentSummary[] }>("/api/experiments", { what: "the experiments", signal }),
    initialData: { experiments: initial },
    refetchInterval: (query) => (query.state.data?.experiments.some((e) => e.status === "running") ? 2_000 : false),
  });

  function start(input: StartExperimentInput) {
    setError(null);
    startTransition(async () => {
      const result = await startExperimentAction(input);
      if (!result.ok) {
        setError(describeError(result.error));
        return;
      }
      router.push(`/experiments/${result.data.experimentId}`);
    });
  }

  return (
    <div className="space-y-6">
      {error ? <Alert tone="error">{error}</Alert> : null}
      <Card>
        <CardHeader
          title="Experiments"
          action={options && !creating ? <Button onClick={() => setCreating(true)}>New experiment</Button> : undefined}
        />
        {options && creating ? (
          <div className="border-b border-zinc-100 px-5 py-4">
            <NewExperimentForm options={options} pending={pending} onStart={start} onCancel={() => setCreating(false)} />
          </div>
        ) : null}
        <ExperimentsTable experiments={list.data.experiments} />
      </Card>
    </div>
  );
}
