"use client";
// "Run" in the designer. A run always uses a saved version, so with unsaved
// changes the button first asks which one: the draft, saved as a new version
// and run ("Save and run"), or the saved version the draft started from — and
// says how the two differ. Without unsaved changes it opens the run dialog
// directly, as everywhere else.
import { useId, useState } from "react";
import type { AgentGraph } from "@/lib/agents/schemas";
import { summarizeGraphChanges } from "@/lib/agents/graph-change-summary";
import { getAgentVersionAction } from "@/lib/actions/get-agent-version";
import { RunLaunchDialog } from "@/components/runs/run-dialog";
import { Button } from "@/components/ui/button";

export type SaveOutcome = { ok: true; version: number } | { ok: false; reason: string };

export interface DesignerRunProps {
  agent: string;
  draft: AgentGraph;
  dirty: boolean;
  /** The version the draft builds on: what "Run the saved vN" runs. */
  baseVersion: number;
  /** The last saved graph the editor holds, and which version it is (not the base after a rebase). */
  saved: { version: number; graph: AgentGraph };
  /** Saves the draft as a new version, with the same checks as Save. */
  save: () => Promise<SaveOutcome>;
}

type Stage =
  | { step: "closed" }
  | { step: "choose"; changes: string[] | null; failure: string | null; saving: boolean }
  | { step: "launch"; version?: number; note?: string };

/** The differences of the draft from the base version, loading that version when the editor does not hold it. */
async function changesFromBase(agent: string, props: Pick<DesignerRunProps, "baseVersion" | "saved" | "draft">): Promise<string[] | string> {
  if (props.saved.version === props.baseVersion) return summarizeGraphChanges(props.saved.graph, props.draft);
  const result = await getAgentVersionAction({ name: agent, version: props.baseVersion });
  return result.ok ? summarizeGraphChanges(result.data.graph, props.draft) : result.error.message;
}

function RunChoice({ agent, baseVersion, stage, onSaveAndRun, onRunSaved, onCancel }: { agent: string; baseVersion: number; stage: Extract<Stage, { step: "choose" }>; onSaveAndRun: () => void; onRunSaved: () => void; onCancel: () => void }) {
  const title = useId();
  return (
    <div className="fixed inset-0 z-50 flex items-start justify-center bg-zinc-900/40 p-8" onKeyDown={(e) => e.key === "Escape" && onCancel()}>
      <div role="dialog" aria-modal="true" aria-labelledby={title} className="w-full max-w-lg space-y-3 rounded-lg bg-white p-6 shadow-xl" data-testid="run-choice">
        <h2 id={title} className="text-lg font-semibold">
          Run {agent}: your draft or the saved v{baseVersion}?
        </h2>
        <p className="text-sm text-zinc-800" data-testid="run-choice-diff">
          {stage.changes === null ? "Comparing the draft with the saved version…" : `The draft differs from v${baseVersion}: ${stage.changes.join(", ")}.`}
        </p>
        <p className="text-xs text-zinc-600">
          A run uses a saved version. Save and run saves the draft as a new version and runs it; running the saved v{baseVersion} leaves your changes out of the run (they stay in the draft).
        </p>
        {stage.failure ? (
          <p role="alert" className="rounded-md bg-red-50 p-3 text-sm text-red-700">
            {stage.failure} Nothing was run.
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="button" variant="secondary" onClick={onRunSaved} disabled={stage.saving}>
            Run the saved v{baseVersion}
          </Button>
          <Button autoFocus type="button" onClick={onSaveAndRun} disabled={stage.saving}>
            {stage.saving ? "Saving…" : "Save and run"}
          </Button>
        </div>
      </div>
    </div>
  );
}

export function DesignerRun(props: DesignerRunProps) {
  const { agent, dirty, baseVersion, save } = props;
  const [stage, setStage] = useState<Stage>({ step: "closed" });

  async function open() {
    if (!dirty) {
      setStage({ step: "launch" });
      return;
    }
    setStage({ step: "choose", changes: null, failure: null, saving: false });
    const changes = await changesFromBase(agent, props);
    setStage((s) => (s.step === "choose" ? { ...s, ...(typeof changes === "string" ? { changes: [], failure: changes } : { changes }) } : s));
  }

  async function saveAndRun() {
    setStage((s) => (s.step === "choose" ? { ...s, saving: true, failure: null } : s));
    const saved = await save();
    if (saved.ok) setStage({ step: "launch", version: saved.version, note: `Runs v${saved.version}, just saved from your draft.` });
    else setStage((s) => (s.step === "choose" ? { ...s, saving: false, failure: saved.reason } : s));
  }

  return (
    <>
      <Button type="button" variant="secondary" className="shrink-0 px-3 py-1" onClick={() => void open()}>
        Run
      </Button>
      {stage.step === "choose" ? (
        <RunChoice
          agent={agent}
          baseVersion={baseVersion}
          stage={stage}
          onSaveAndRun={() => void saveAndRun()}
          onRunSaved={() => setStage({ step: "launch", version: baseVersion, note: `Runs the saved v${baseVersion}: your unsaved changes are not part of this run; they stay in the draft.` })}
          onCancel={() => setStage({ step: "closed" })}
        />
      ) : null}
      {stage.step === "launch" ? <RunLaunchDialog agent={agent} initial={stage.version ? { version: stage.version } : undefined} note={stage.note} onClose={() => setStage({ step: "closed" })} /> : null}
    </>
  );
}
