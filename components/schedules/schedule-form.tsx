"use client";
// Create or edit a schedule: a saved graph and its version (or the default
// version at each firing), every N seconds or a cron in a time zone, jitter,
// the task and its context, what happens when a firing finds the previous run
// still working, and after how many failures in a row it pauses itself. What
// the form cannot parse (the context's JSON) is named before anything is sent;
// everything else is checked by the same schema as every door, whose 422
// names the field.
import { OVERLAP_LABELS, OVERLAP_POLICIES, type OverlapPolicy, type ScheduleCreateInput, type ScheduleView } from "@/lib/schedules/schemas";
import { Button } from "@/components/ui/button";
import { Input, Label, Select } from "@/components/ui/input";

export interface ScheduleDraft {
  editing: string | null;
  name: string;
  graph: string;
  /** "" runs the graph's default version at each firing. */
  version: string;
  kind: "interval" | "cron";
  intervalSeconds: string;
  cron: string;
  timeZone: string;
  jitterSeconds: string;
  task: string;
  context: string;
  overlap: OverlapPolicy;
  failureLimit: string;
}

export function emptyDraft(graph: string): ScheduleDraft {
  return { editing: null, name: "", graph, version: "", kind: "interval", intervalSeconds: "3600", cron: "0 9 * * 1-5", timeZone: "UTC", jitterSeconds: "0", task: "", context: "{}", overlap: "skip", failureLimit: "3" };
}

export function draftOf(schedule: ScheduleView): ScheduleDraft {
  return {
    editing: schedule.id,
    name: schedule.name,
    graph: schedule.graph,
    version: schedule.version === null ? "" : String(schedule.version),
    kind: schedule.cron ? "cron" : "interval",
    intervalSeconds: String(schedule.intervalSeconds ?? 3600),
    cron: schedule.cron ?? "0 9 * * 1-5",
    timeZone: schedule.timeZone,
    jitterSeconds: String(schedule.jitterSeconds),
    task: schedule.task,
    context: JSON.stringify(schedule.context, null, 2),
    overlap: schedule.overlap,
    failureLimit: String(schedule.failureLimit),
  };
}

/** A number as typed; text that is not one goes on as NaN, so the server's 422 names the field. */
const numberOf = (text: string) => (text.trim() === "" ? Number.NaN : Number(text));

/** The draft as the API's input, or the context's JSON error. */
export function inputOf(d: ScheduleDraft): { input: ScheduleCreateInput } | { error: string } {
  let context: unknown;
  try {
    context = JSON.parse(d.context.trim() || "{}");
  } catch {
    return { error: "context: not valid JSON" };
  }
  if (!context || typeof context !== "object" || Array.isArray(context)) return { error: "context: give a JSON object" };
  return {
    input: {
      name: d.name.trim(),
      graph: d.graph,
      version: d.version.trim() === "" ? null : numberOf(d.version),
      cron: d.kind === "cron" ? d.cron.trim() : null,
      intervalSeconds: d.kind === "interval" ? numberOf(d.intervalSeconds) : null,
      timeZone: d.timeZone.trim(),
      jitterSeconds: numberOf(d.jitterSeconds),
      task: d.task,
      context: context as Record<string, unknown>,
      overlap: d.overlap,
      failureLimit: numberOf(d.failureLimit),
    },
  };
}

const TEXTAREA = "block w-full rounded-md border-0 bg-white px-3 py-2 font-mono text-sm text-zinc-900 shadow-sm ring-1 ring-inset ring-zinc-300 focus:ring-2 focus:ring-inset focus:ring-indigo-600";

export function ScheduleForm({ draft, graphs, pending, onChange, onSave, onCancel }: { draft: ScheduleDraft; graphs: string[]; pending: boolean; onChange: (patch: Partial<ScheduleDraft>) => void; onSave: () => void; onCancel: () => void }) {
  const title = draft.editing ? `Edit ${draft.name}` : "New schedule";
  return (
    <form
      aria-label={title}
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      <h2 className="text-sm font-semibold text-zinc-900">{title}</h2>
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <div className="col-span-2">
          <Label htmlFor="schedule-name">Name</Label>
          <Input id="schedule-name" value={draft.name} onChange={(e) => onChange({ name: e.target.value })} placeholder="Nightly reconciliation" />
        </div>
        <div>
          <Label htmlFor="schedule-graph">Graph</Label>
          <Select id="schedule-graph" value={draft.graph} onChange={(e) => onChange({ graph: e.target.value })}>
            {[...new Set([draft.graph, ...graphs])].filter(Boolean).map((graph) => (
              <option key={graph} value={graph}>
                {graph}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="schedule-version">Version (empty: latest)</Label>
          <Input id="schedule-version" inputMode="numeric" value={draft.version} onChange={(e) => onChange({ version: e.target.value })} placeholder="latest" />
        </div>
        <div>
          <Label htmlFor="schedule-kind">Fires</Label>
          <Select id="schedule-kind" value={draft.kind} onChange={(e) => onChange({ kind: e.target.value as ScheduleDraft["kind"] })}>
            <option value="interval">Every N seconds</option>
            <option value="cron">On a cron</option>
          </Select>
        </div>
        {draft.kind === "interval" ? (
          <div>
            <Label htmlFor="schedule-interval">Every (seconds)</Label>
            <Input id="schedule-interval" inputMode="numeric" value={draft.intervalSeconds} onChange={(e) => onChange({ intervalSeconds: e.target.value })} />
          </div>
        ) : (
          <div>
            <Label htmlFor="schedule-cron">Cron (min hour day month weekday)</Label>
            <Input id="schedule-cron" value={draft.cron} onChange={(e) => onChange({ cron: e.target.value })} placeholder="0 9 * * 1-5" />
          </div>
        )}
        <div>
          <Label htmlFor="schedule-zone">Time zone</Label>
          <Input id="schedule-zone" value={draft.timeZone} onChange={(e) => onChange({ timeZone: e.target.value })} placeholder="Europe/Paris" />
        </div>
        <div>
          <Label htmlFor="schedule-jitter">Jitter (seconds)</Label>
          <Input id="schedule-jitter" inputMode="numeric" value={draft.jitterSeconds} onChange={(e) => onChange({ jitterSeconds: e.target.value })} />
        </div>
        <div className="col-span-2">
          <Label htmlFor="schedule-overlap">When the previous run still works</Label>
          <Select id="schedule-overlap" value={draft.overlap} onChange={(e) => onChange({ overlap: e.target.value as OverlapPolicy })}>
            {OVERLAP_POLICIES.map((policy) => (
              <option key={policy} value={policy}>
                {OVERLAP_LABELS[policy]}
              </option>
            ))}
          </Select>
        </div>
        <div>
          <Label htmlFor="schedule-failures">Pause after failures in a row</Label>
          <Input id="schedule-failures" inputMode="numeric" value={draft.failureLimit} onChange={(e) => onChange({ failureLimit: e.target.value })} />
        </div>
        <div className="col-span-2 lg:col-span-4">
          <Label htmlFor="schedule-task">Task</Label>
          <textarea id="schedule-task" className={TEXTAREA} rows={2} value={draft.task} onChange={(e) => onChange({ task: e.target.value })} placeholder="Reconcile yesterday's payments" />
        </div>
        <div className="col-span-2 lg:col-span-4">
          <Label htmlFor="schedule-context">Context (JSON)</Label>
          <textarea id="schedule-context" className={TEXTAREA} rows={3} value={draft.context} onChange={(e) => onChange({ context: e.target.value })} />
        </div>
      </div>
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" disabled={pending}>
          {draft.editing ? "Save" : "Create schedule"}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
