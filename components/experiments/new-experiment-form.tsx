"use client";
// The "New experiment" form: a dataset (its newest version, or a pinned one),
// 1–6 targets (graph, version, optional model), the scorers with an optional
// threshold each, concurrency, what gated calls get, and the side-effect-free
// tools that may run live. It builds the start operation's input; the server
// checks everything again. It preselects nothing the user did not choose
// (issue 37 §2): the dataset of their own last experiment at most; a target's
// graph is the chosen dataset's source graph until the user picks one, and its
// version the graph's default (never a draft).
import { useEffect, useState } from "react";
import type { StartExperimentInput } from "@/lib/experiments/schemas";
import { MAX_EXPERIMENT_CONCURRENCY, MAX_EXPERIMENT_TARGETS } from "@/lib/experiments/schemas";
import type { ExperimentFormOptions } from "@/lib/experiments/server/form-options";
import { scorerName, type ScorerConfig } from "@/lib/experiments/scoring/types";
import { Button } from "@/components/ui/button";
import { Input, Label, Select } from "@/components/ui/input";
import { getDatasetSourceGraphAction } from "@/lib/actions/get-dataset-source-graph";

interface TargetDraft {
  graph: string;
  version: string;
  model: string;
}

/** The scorers the form offers without further settings (the judge adds its rubric). */
const FIXED_SCORERS: { config: ScorerConfig; label: string }[] = [
  { config: { kind: "exact" }, label: "Exact answer" },
  { config: { kind: "contains" }, label: "Answer contains the expected output" },
  { config: { kind: "trajectory", order: "unordered", arguments: "subset" }, label: "Tool trajectory (any order, expected arguments)" },
  { config: { kind: "trajectory", order: "strict", arguments: "exact" }, label: "Tool trajectory (same order, same arguments)" },
  { config: { kind: "routing" }, label: "Routing" },
  { config: { kind: "plan" }, label: "Plan checks" },
  { config: { kind: "recorded" }, label: "Recorded history only (no edited step)" },
];

export function NewExperimentForm({ options, pending, onStart, onCancel }: { options: ExperimentFormOptions; pending: boolean; onStart: (input: StartExperimentInput) => void; onCancel: () => void }) {
  const graphNamed = (name: string | undefined) => options.graphs.find((g) => g.name === name);
  // A target on a graph takes its default version; with no graph, the user has not chosen one yet.
  const newTarget = (graph?: ExperimentFormOptions["graphs"][number]): TargetDraft => ({ graph: graph?.name ?? "", version: String(graph?.defaultVersion ?? ""), model: "" });
  const [name, setName] = useState("");
  const [dataset, setDataset] = useState(options.lastDataset ?? "");
  const [datasetVersion, setDatasetVersion] = useState("");
  const [targets, setTargets] = useState<TargetDraft[]>([newTarget()]);
  const [scorers, setScorers] = useState<ReadonlySet<string>>(new Set(["exact"]));
  const [thresholds, setThresholds] = useState<Record<string, string>>({});
  const [rubric, setRubric] = useState("");
  const [concurrency, setConcurrency] = useState("4");
  const [approvals, setApprovals] = useState<"reject" | "approve">("reject");
  const [liveTools, setLiveTools] = useState<ReadonlySet<string>>(new Set());

  const offered = [
    ...FIXED_SCORERS,
    { config: { kind: "judge", rubric: rubric.trim() || "The answer is correct and complete." } satisfies ScorerConfig, label: "Judge (demo/judge) with the rubric below" },
    ...options.customScorers.map((custom) => ({ config: { kind: "custom", name: custom } satisfies ScorerConfig, label: `Custom: ${custom}` })),
  ];

  const toggle = (set: ReadonlySet<string>, key: string, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(key);
    else next.delete(key);
    return next;
  };
  const setTarget = (index: number, patch: Partial<TargetDraft>) => setTargets((all) => all.map((t, i) => (i === index ? { ...t, ...patch } : t)));

  // The chosen dataset's source graph fills the targets whose graph nobody chose yet (never one a user picked).
  const datasetId = options.datasets.find((d) => d.name === dataset)?.id;
  useEffect(() => {
    if (!datasetId) return;
    let current = true;
    void getDatasetSourceGraphAction({ datasetId }).then((result) => {
      const source = result.ok ? options.graphs.find((g) => g.name === result.data.graph) : undefined;
      if (current && source) setTargets((all) => all.map((t) => (t.graph === "" ? { graph: source.name, version: String(source.defaultVersion ?? ""), model: t.model } : t)));
    });
    return () => {
      current = false;
    };
  }, [datasetId, options.graphs]);

  function submit() {
    const chosen = offered.filter((s) => scorers.has(scorerName(s.config)));
    const limits = Object.fromEntries(
      chosen.flatMap((s) => {
        const key = scorerName(s.config);
        const text = thresholds[key]?.trim();
        return text ? [[key, Number(text)]] : [];
      }),
    );
    onStart({
      ...(name.trim() ? { name: name.trim() } : {}),
      dataset,
      ...(datasetVersion.trim() ? { datasetVersion: Number(datasetVersion) } : {}),
      targets: targets.map((t) => ({ graph: t.graph, version: Number(t.version), ...(t.model.trim() ? { model: t.model.trim() } : {}) })),
      scorers: chosen.map((s) => s.config),
      ...(Object.keys(limits).length ? { thresholds: limits } : {}),
      concurrency: Number(concurrency),
      approvals,
      ...(liveTools.size ? { liveTools: [...liveTools] } : {}),
    });
  }

  return (
    <form
      className="space-y-5"
      aria-label="New experiment"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <div className="grid gap-4 sm:grid-cols-3">
        <div>
          <Label htmlFor="experiment-name">Name (optional)</Label>
          <Input id="experiment-name" value={name} maxLength={120} onChange={(e) => setName(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="experiment-dataset">Dataset</Label>
          <Select id="experiment-dataset" value={dataset} onChange={(e) => setDataset(e.target.value)} required>
            <option value="">{options.datasets.length === 0 ? "No datasets yet" : "Choose a dataset…"}</option>
            {options.datasets.map((d) => (
              <option key={d.id} value={d.name}>
                {`${d.name} (v${d.latestVersion}, ${d.itemCount} items)`}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="experiment-dataset-version">Dataset version (default: newest)</Label>
          <Input id="experiment-dataset-version" type="number" min={1} value={datasetVersion} onChange={(e) => setDatasetVersion(e.target.value)} />
        </div>
      </div>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-zinc-700">Targets</legend>
        {targets.map((target, index) => {
          const graph = graphNamed(target.graph);
          const versions = graph?.versions ?? [];
          return (
            <div key={index} className="flex flex-wrap items-center gap-2">
              <Select aria-label={`Target ${index + 1} graph`} className="w-56" value={target.graph} onChange={(e) => setTarget(index, newTarget(graphNamed(e.target.value)))} required>
                <option value="">Choose a graph…</option>
                {options.graphs.map((g) => (
                  <option key={g.name} value={g.name}>
                    {g.name}
                  </option>
                ))}
              </Select>
              <Select aria-label={`Target ${index + 1} version`} className="w-40" value={target.version} onChange={(e) => setTarget(index, { version: e.target.value })} required>
                {versions.length === 0 ? <option value="">—</option> : null}
                {versions.map((v) => (
                  <option key={v.version} value={String(v.version)}>{`v${v.version}${v.version === graph?.defaultVersion ? " (default)" : v.draft ? " (draft)" : ""}`}</option>
                ))}
              </Select>
              <Input aria-label={`Target ${index + 1} model (optional)`} className="w-64" placeholder="model override, e.g. demo/assistant" value={target.model} onChange={(e) => setTarget(index, { model: e.target.value })} />
              {targets.length > 1 ? (
                <Button type="button" variant="ghost" onClick={() => setTargets((all) => all.filter((_, i) => i !== index))}>
                  Remove
                </Button>
              ) : null}
            </div>
          );
        })}
        {targets.length < MAX_EXPERIMENT_TARGETS ? (
          <Button type="button" variant="secondary" onClick={() => setTargets((all) => [...all, newTarget(graphNamed(all[all.length - 1]?.graph))])}>
            Add target
          </Button>
        ) : null}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="text-sm font-medium text-zinc-700">Scorers and thresholds (minimum mean, 0–1)</legend>
        {offered.map((s) => {
          const key = scorerName(s.config);
          return (
            <div key={key} className="flex flex-wrap items-center gap-3 text-sm">
              <label className="flex w-96 items-center gap-2">
                <input type="checkbox" checked={scorers.has(key)} onChange={(e) => setScorers((all) => toggle(all, key, e.target.checked))} />
                {s.label}
              </label>
              {scorers.has(key) ? (
                <Input aria-label={`Threshold for ${key}`} className="w-28" type="number" min={0} max={1} step={0.01} placeholder="none" value={thresholds[key] ?? ""} onChange={(e) => setThresholds((all) => ({ ...all, [key]: e.target.value }))} />
              ) : null}
            </div>
          );
        })}
        {scorers.has("judge") ? (
          <div>
            <Label htmlFor="experiment-rubric">Judge rubric</Label>
            <Input id="experiment-rubric" value={rubric} maxLength={8000} placeholder="The answer is correct and complete." onChange={(e) => setRubric(e.target.value)} />
          </div>
        ) : null}
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-3">
        <div>
          <Label htmlFor="experiment-concurrency">Concurrency</Label>
          <Input id="experiment-concurrency" type="number" min={1} max={MAX_EXPERIMENT_CONCURRENCY} value={concurrency} onChange={(e) => setConcurrency(e.target.value)} />
        </div>
        <div>
          <Label htmlFor="experiment-approvals">Gated calls without a recorded decision</Label>
          <Select id="experiment-approvals" value={approvals} onChange={(e) => setApprovals(e.target.value === "approve" ? "approve" : "reject")}>
            <option value="reject">are rejected</option>
            <option value="approve">are approved</option>
          </Select>
        </div>
      </div>

      <fieldset>
        <legend className="text-sm font-medium text-zinc-700">Tools that may run live when the tape has no result (side-effect free only)</legend>
        <div className="mt-2 flex flex-wrap gap-4 text-sm">
          {options.liveTools.map((tool) => (
            <label key={tool} className="flex items-center gap-2">
              <input type="checkbox" checked={liveTools.has(tool)} onChange={(e) => setLiveTools((all) => toggle(all, tool, e.target.checked))} />
              {tool}
            </label>
          ))}
        </div>
      </fieldset>

      <div className="flex gap-2">
        <Button type="submit" disabled={pending || !dataset || targets.length === 0 || targets.some((t) => !t.graph || !t.version) || scorers.size === 0}>
          {pending ? "Starting…" : "Start experiment"}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
