"use client";
// Create or edit a monitor: a series picked by its dashboard label, the stat
// that fits it, a comparator and a threshold in the series' own unit (a ratio
// in %, the approvals' wait in minutes), the window and optional filters; the
// preview reads what the series is now, the value the evaluator would compare.
import { useState } from "react";
import { getJson } from "@/lib/http/client";
import type { MetricFilters } from "@/lib/metrics/schemas";
import { formatSeriesValue } from "@/lib/monitors/episode";
import {
  COMPARATOR_SYMBOLS,
  MONITOR_COMPARATORS,
  MONITOR_SERIES,
  MONITOR_SERIES_NAMES,
  STATS_BY_KIND,
  type MonitorComparator,
  type MonitorCreateInput,
  type MonitorSeriesName,
  type MonitorView,
} from "@/lib/monitors/schemas";
import { Button } from "@/components/ui/button";
import { Input, Label, Select } from "@/components/ui/input";

/** How a threshold is typed for each unit: a ratio in percent, the approvals' wait in minutes. */
function inputUnit(series: MonitorSeriesName): { suffix: string; factor: number } {
  if (series === "approvals_oldest_wait") return { suffix: "min", factor: 60_000 };
  // A score is written as the pages write it, 0 to 1 (0.8), not as a percentage.
  if (series === "evaluator_score") return { suffix: "score 0–1", factor: 1 };
  switch (MONITOR_SERIES[series].unit) {
    case "ratio":
      return { suffix: "%", factor: 0.01 };
    case "ms":
      return { suffix: "ms", factor: 1 };
    case "usd":
      return { suffix: "US$", factor: 1 };
    case "tokens":
      return { suffix: "tokens", factor: 1 };
    case "count":
      return { suffix: "", factor: 1 };
  }
}

export interface MonitorDraft {
  editing: string | null;
  name: string;
  series: MonitorSeriesName;
  stat: string;
  label: string;
  comparator: MonitorComparator;
  /** As typed, in the input unit. */
  threshold: string;
  windowMinutes: string;
  graph: string;
  startedBy: string;
  tool: string;
}

export const EMPTY_DRAFT: MonitorDraft = { editing: null, name: "", series: "runs_failed", stat: "", label: "", comparator: "gt", threshold: "", windowMinutes: "15", graph: "", startedBy: "", tool: "" };

export function draftOf(monitor: MonitorView): MonitorDraft {
  const { factor } = inputUnit(monitor.series);
  return {
    editing: monitor.id,
    name: monitor.name,
    series: monitor.series,
    stat: monitor.stat ?? "",
    label: monitor.label ?? "",
    comparator: monitor.comparator,
    threshold: String(Math.round((monitor.threshold / factor) * 1e6) / 1e6),
    windowMinutes: String(monitor.windowMinutes),
    graph: monitor.filters.graph ?? "",
    startedBy: monitor.filters.startedBy ?? "",
    tool: monitor.filters.tool ?? "",
  };
}

/** The draft as the API's input; text the schema will refuse (an empty threshold) is passed on so the 422 names the field. */
export function inputOf(d: MonitorDraft): MonitorCreateInput {
  const filters: MetricFilters = {};
  if (d.graph.trim()) filters.graph = d.graph.trim();
  if (d.startedBy.trim()) filters.startedBy = d.startedBy.trim();
  if (d.tool.trim()) filters.tool = d.tool.trim();
  const threshold = d.threshold.trim() === "" ? Number.NaN : Number(d.threshold) * inputUnit(d.series).factor;
  return {
    name: d.name.trim(),
    series: d.series,
    stat: d.stat ? (d.stat as MonitorCreateInput["stat"]) : null,
    label: d.label.trim() || null,
    comparator: d.comparator,
    threshold,
    windowMinutes: Number(d.windowMinutes),
    filters,
  };
}

export function MonitorForm({ draft, pending, onChange, onSave, onCancel }: { draft: MonitorDraft; pending: boolean; onChange: (patch: Partial<MonitorDraft>) => void; onSave: () => void; onCancel: () => void }) {
  const [preview, setPreview] = useState<string | null>(null);
  const definition = MONITOR_SERIES[draft.series];
  const stats = STATS_BY_KIND[definition.kind];
  const unit = inputUnit(draft.series);

  async function showPreview() {
    const input = inputOf(draft);
    const query = new URLSearchParams({ series: input.series, windowMinutes: String(input.windowMinutes) });
    if (input.stat) query.set("stat", input.stat);
    if (input.label) query.set("label", input.label);
    for (const [key, value] of Object.entries(input.filters ?? {})) query.set(key, String(value));
    try {
      const { value } = await getJson<{ value: number | null }>(`/api/monitors/preview?${query.toString()}`, { what: "the preview" });
      setPreview(`Now: ${formatSeriesValue(draft.series, value)}`);
    } catch (error) {
      setPreview(error instanceof Error ? error.message : "The preview failed");
    }
  }

  return (
    <form
      aria-label={draft.editing ? `Edit ${draft.name}` : "New monitor"}
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <h2 className="text-sm font-semibold text-zinc-900">{draft.editing ? `Edit ${draft.name}` : "New monitor"}</h2>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <div className="col-span-2">
          <Label htmlFor="monitor-name">Name</Label>
          <Input id="monitor-name" value={draft.name} onChange={(e) => onChange({ name: e.target.value })} placeholder="Failures on support-triage" />
        </div>
        <div className="col-span-2">
          <Label htmlFor="monitor-series">Series</Label>
          <Select id="monitor-series" value={draft.series} onChange={(e) => onChange({ series: e.target.value as MonitorSeriesName, stat: "", label: "" })}>
            {MONITOR_SERIES_NAMES.map((name) => (
              <option key={name} value={name}>
                {MONITOR_SERIES[name].label}
              </option>
            ))}
          </Select>
        </div>
        {stats.length > 1 ? (
          <div>
            <Label htmlFor="monitor-stat">Read as</Label>
            <Select id="monitor-stat" value={draft.stat} onChange={(e) => onChange({ stat: e.target.value })}>
              <option value="">{stats[0]} (default)</option>
              {stats.slice(1).map((stat) => (
                <option key={stat} value={stat}>
                  {stat}
                </option>
              ))}
            </Select>
          </div>
        ) : null}
        {definition.labelMeaning ? (
          <div>
            <Label htmlFor="monitor-label">{draft.series === "evaluator_score" ? "Evaluator" : "Only this label"}</Label>
            <Input id="monitor-label" value={draft.label} onChange={(e) => onChange({ label: e.target.value })} placeholder={definition.labelMeaning} />
          </div>
        ) : null}
        <div>
          <Label htmlFor="monitor-comparator">Fires when</Label>
          <Select id="monitor-comparator" value={draft.comparator} onChange={(e) => onChange({ comparator: e.target.value as MonitorComparator })}>
            {MONITOR_COMPARATORS.map((c) => (
              <option key={c} value={c}>
                {COMPARATOR_SYMBOLS[c]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="monitor-threshold">{unit.suffix ? `Threshold (${unit.suffix})` : "Threshold"}</Label>
          <Input id="monitor-threshold" inputMode="decimal" value={draft.threshold} onChange={(e) => onChange({ threshold: e.target.value })} />
        </div>
        <div>
          <Label htmlFor="monitor-window">Over the last (minutes)</Label>
          <Input id="monitor-window" inputMode="numeric" value={draft.windowMinutes} onChange={(e) => onChange({ windowMinutes: e.target.value })} />
        </div>
        {draft.series !== "approvals_oldest_wait" ? (
          <>
            <div>
              <Label htmlFor="monitor-graph">Graph (optional)</Label>
              <Input id="monitor-graph" value={draft.graph} onChange={(e) => onChange({ graph: e.target.value })} />
            </div>
            {draft.series !== "evaluator_score" ? (
              <div>
                <Label htmlFor="monitor-started-by">Started by (optional)</Label>
                <Input id="monitor-started-by" value={draft.startedBy} onChange={(e) => onChange({ startedBy: e.target.value })} />
              </div>
            ) : null}
          </>
        ) : null}
        {draft.series !== "evaluator_score" ? (
          <div>
            <Label htmlFor="monitor-tool">Tool (optional)</Label>
            <Input id="monitor-tool" value={draft.tool} onChange={(e) => onChange({ tool: e.target.value })} />
          </div>
        ) : null}
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={pending}>
          {draft.editing ? "Save" : "Create monitor"}
        </Button>
        <Button type="button" variant="secondary" onClick={() => void showPreview()}>
          Preview current value
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        {preview ? (
          <output className="text-sm text-zinc-700" data-testid="monitor-preview">
            {preview}
          </output>
        ) : null}
      </div>
    </form>
  );
}
