"use client";
// The schedules page: every schedule with what it runs, when it fires next and
// how its last firing ended (a link to the run, and to all its runs); for
// builders and admins, create / edit / pause / resume / run now / backfill /
// delete. Viewers see the same list without controls.
import { useState, useTransition } from "react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { describeSpec, type ScheduleView } from "@/lib/schedules/schemas";
import { createScheduleAction } from "@/lib/actions/create-schedule";
import { updateScheduleAction } from "@/lib/actions/update-schedule";
import { pauseScheduleAction } from "@/lib/actions/pause-schedule";
import { resumeScheduleAction } from "@/lib/actions/resume-schedule";
import { triggerScheduleAction } from "@/lib/actions/trigger-schedule";
import { backfillScheduleAction } from "@/lib/actions/backfill-schedule";
import { deleteScheduleAction } from "@/lib/actions/delete-schedule";
import { localInputToIso } from "@/lib/runs/time-range";
import type { ErrorBody } from "@/lib/errors";
import { Alert } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardHeader } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { DateTime } from "@/components/ui/date-time";
import { ScheduleOutcomeBadge } from "@/components/triggers/outcome-badges";
import { ScheduleForm, draftOf, emptyDraft, inputOf, type ScheduleDraft } from "@/components/schedules/schedule-form";

type Result<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}

function Outcome({ schedule }: { schedule: ScheduleView }) {
  if (!schedule.lastOutcome) return <span className="text-zinc-500">not fired yet</span>;
  return (
    <span className="space-x-1">
      <ScheduleOutcomeBadge outcome={schedule.lastOutcome} />
      {schedule.lastRunId ? (
        <Link className="text-xs text-indigo-700 hover:underline" href={`/runs/${encodeURIComponent(schedule.lastRunId)}`}>
          last run
        </Link>
      ) : null}
      {schedule.lastError ? <p className="text-xs text-zinc-500">{schedule.lastError}</p> : null}
    </span>
  );
}

function BackfillForm({ schedule, pending, onSubmit, onCancel }: { schedule: ScheduleView; pending: boolean; onSubmit: (from: string, to: string) => void; onCancel: () => void }) {
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  return (
    <form
      aria-label={`Backfill ${schedule.name}`}
      className="flex flex-wrap items-end gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit(localInputToIso(from), localInputToIso(to));
      }}
    >
      <label className="flex flex-col text-xs text-zinc-600">
        From
        <Input aria-label="Backfill from" type="datetime-local" value={from} onChange={(e) => setFrom(e.target.value)} />
      </label>
      <label className="flex flex-col text-xs text-zinc-600">
        To
        <Input aria-label="Backfill to" type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
      </label>
      <Button type="submit" disabled={pending}>
        Start past runs
      </Button>
      <Button type="button" variant="ghost" onClick={onCancel}>
        Cancel
      </Button>
    </form>
  );
}

/** `?graph=<name>` (a graph's Triggers tab): its schedules only, and the graph a new one starts with; `&new=1` opens the form. */
export interface SchedulesPreset {
  graph: string;
  open: boolean;
}

export function SchedulesPage({ schedules, graphs, canManage, preset }: { schedules: ScheduleView[]; graphs: string[]; canManage: boolean; preset?: SchedulesPreset }) {
  const router = useRouter();
  const [draft, setDraft] = useState<ScheduleDraft | null>(() => (canManage && preset?.open ? emptyDraft(preset.graph) : null));
  const [backfilling, setBackfilling] = useState<string | null>(null);
  const [message, setMessage] = useState<{ tone: "error" | "success"; text: string } | null>(null);
  const [pending, startTransition] = useTransition();

  /** Runs an action; says what happened, and refreshes the list on success. */
  function act<T>(run: () => Promise<Result<T>>, success: (data: T) => string, after?: () => void) {
    startTransition(async () => {
      const result = await run();
      if (!result.ok) {
        setMessage({ tone: "error", text: describeError(result.error) });
        return;
      }
      setMessage({ tone: "success", text: success(result.data) });
      after?.();
      router.refresh();
    });
  }

  function save(d: ScheduleDraft) {
    const parsed = inputOf(d);
    if ("error" in parsed) {
      setMessage({ tone: "error", text: parsed.error });
      return;
    }
    const editing = d.editing;
    act(
      () => (editing ? updateScheduleAction({ id: editing, patch: parsed.input }) : createScheduleAction(parsed.input)),
      (s) => `${s.name} is ${editing ? "saved" : "created"}${s.syncError ? `, but Temporal has not taken it yet: ${s.syncError}` : ""}.`,
      () => setDraft(null),
    );
  }

  function remove(schedule: ScheduleView) {
    if (!window.confirm(`Delete the schedule "${schedule.name}"? Its runs stay.`)) return;
    act(() => deleteScheduleAction({ id: schedule.id }), () => `${schedule.name} is deleted.`);
  }

  return (
    <div className="space-y-6">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Card>
        <CardHeader title="Schedules" action={canManage && !draft ? <Button onClick={() => setDraft(emptyDraft(preset?.graph ?? graphs[0] ?? ""))}>New schedule</Button> : undefined} />
        {draft ? (
          <div className="border-b border-zinc-100 px-5 py-4">
            <ScheduleForm draft={draft} graphs={graphs} pending={pending} onChange={(patch) => setDraft((d) => (d ? { ...d, ...patch } : d))} onSave={() => save(draft)} onCancel={() => setDraft(null)} />
          </div>
        ) : null}
        <table className="min-w-full divide-y divide-zinc-200 text-sm" aria-label="Schedules">
          <thead className="bg-zinc-50 text-left text-xs font-semibold uppercase tracking-wide text-zinc-500">
            <tr>
              <th className="px-4 py-3">Schedule</th>
              <th className="px-4 py-3">Runs</th>
              <th className="px-4 py-3">When</th>
              <th className="px-4 py-3">Next</th>
              <th className="px-4 py-3">Last firing</th>
              {canManage ? (
                <th className="px-4 py-3">
                  <span className="sr-only">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {schedules.map((s) => (
              <tr key={s.id} id={s.id} data-testid={`schedule-row-${s.id}`} className="align-top target:bg-amber-50">
                <td className="px-4 py-3">
                  <p className="font-medium text-zinc-900">{s.name}</p>
                  <p className="text-xs text-zinc-500">owner {s.owner.email ?? s.owner.id}</p>
                  {s.paused ? (
                    <p className="text-xs text-amber-700" data-testid="schedule-paused">
                      <Badge tone="warning">paused</Badge> {s.pauseNote}
                    </p>
                  ) : null}
                  {s.syncError ? <p className="text-xs text-red-700">Temporal not in step: {s.syncError}</p> : null}
                </td>
                <td className="px-4 py-3 text-zinc-700">
                  {s.graph} · {s.version === null ? "latest" : `v${s.version}`}
                  <p className="max-w-xs truncate text-xs text-zinc-500" title={s.task}>
                    {s.task}
                  </p>
                  <Link className="text-xs text-indigo-700 hover:underline" href={`/runs?scheduleId=${encodeURIComponent(s.id)}`}>
                    Runs of {s.name}
                  </Link>
                </td>
                <td className="px-4 py-3 text-zinc-700">
                  {describeSpec(s)}
                  <p className="text-xs text-zinc-500">
                    {s.overlap.replaceAll("_", " ")}
                    {s.jitterSeconds ? ` · jitter ${s.jitterSeconds} s` : ""} · pauses after {s.failureLimit} failures ({s.consecutiveFailures} now)
                  </p>
                </td>
                <td className="px-4 py-3 text-zinc-700" data-testid="schedule-next">
                  {s.nextFireTimes[0] ? <DateTime value={s.nextFireTimes[0]} /> : "—"}
                </td>
                <td className="px-4 py-3" data-testid="schedule-outcome">
                  <Outcome schedule={s} />
                  {s.lastFiredAt ? (
                    <p className="text-xs text-zinc-500">
                      <DateTime value={s.lastFiredAt} />
                    </p>
                  ) : null}
                </td>
                {canManage ? (
                  <td className="space-y-2 px-4 py-3 text-right">
                    <div className="flex flex-wrap justify-end gap-2">
                      <Button variant="secondary" disabled={pending || s.paused} onClick={() => act(() => triggerScheduleAction({ id: s.id }), () => `${s.name} fires now.`)}>
                        Run now
                      </Button>
                      {s.paused ? (
                        <Button variant="secondary" disabled={pending} onClick={() => act(() => resumeScheduleAction({ id: s.id }), () => `${s.name} is resumed.`)}>
                          Resume
                        </Button>
                      ) : (
                        <Button variant="secondary" disabled={pending} onClick={() => act(() => pauseScheduleAction({ id: s.id }), () => `${s.name} is paused.`)}>
                          Pause
                        </Button>
                      )}
                      <Button variant="secondary" disabled={pending || s.paused} onClick={() => setBackfilling(backfilling === s.id ? null : s.id)}>
                        Backfill
                      </Button>
                      <Button variant="secondary" disabled={pending} onClick={() => setDraft(draftOf(s))}>
                        Edit
                      </Button>
                      <Button variant="secondary" disabled={pending} onClick={() => remove(s)}>
                        Delete
                      </Button>
                    </div>
                    {backfilling === s.id ? (
                      <BackfillForm
                        schedule={s}
                        pending={pending}
                        onCancel={() => setBackfilling(null)}
                        onSubmit={(from, to) => act(() => backfillScheduleAction({ id: s.id, from, to }), (r) => `${s.name}: ${r.firings} past firing${r.firings === 1 ? "" : "s"} started.`, () => setBackfilling(null))}
                      />
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
        {schedules.length === 0 ? <p className="px-4 py-3 text-sm text-zinc-500">No schedule yet{canManage ? ": create one to run an agent unattended." : "."}</p> : null}
      </Card>
    </div>
  );
}
