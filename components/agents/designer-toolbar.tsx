"use client";
// The designer's toolbar: one row at any common width. The name gives way
// (truncated, full name on hover) before the buttons wrap (Export draft lives
// in the history panel, beside the versions' exports), and "unsaved
// changes" has a slot of its own, so appearing never moves or wraps anything.
import type { ReactNode } from "react";
import Link from "@/components/ui/link";
import { HelpPopover } from "@/components/agents/help-popover";

const TOOL = "shrink-0 whitespace-nowrap rounded px-2 py-1 text-xs ring-1 ring-zinc-300 disabled:opacity-40";

export interface ToolbarProps {
  name: string;
  baseVersion: number;
  dirty: boolean;
  canEdit: boolean;
  readOnly: boolean;
  canUndo: boolean;
  canRedo: boolean;
  saveDisabled: boolean;
  message: string;
  onMessage: (text: string) => void;
  onUndo: () => void;
  onRedo: () => void;
  onAutoLayout: () => void;
  onFitView: () => void;
  onSave: () => void;
  /** The Run button (and what it opens). */
  run: ReactNode;
}

export function DesignerToolbar(props: ToolbarProps) {
  const { name, baseVersion, dirty, canEdit, readOnly } = props;
  return (
    <header className="flex flex-nowrap items-center gap-2 border-b border-zinc-200 bg-white px-4 py-2" data-testid="designer-toolbar">
      <div className="flex min-w-0 flex-1 items-center gap-2">
        <Link href="/agents" className="shrink-0 text-sm text-zinc-500 hover:underline">
          Agents
        </Link>
        <span className="text-zinc-400">/</span>
        <h1 className="min-w-0 truncate text-lg font-semibold" title={name}>
          {name}
        </h1>
        <span className="shrink-0 whitespace-nowrap text-xs text-zinc-500" data-testid="base-version">
          v{baseVersion}
          <span className="ml-1 inline-block w-28" title={dirty ? "The draft is kept in this browser until you save it." : undefined}>
            {dirty ? "· unsaved changes" : ""}
          </span>
        </span>
        {/* The graph's other tab: its schedules and webhooks (app/(dashboard)/agents/[name]/triggers). */}
        <Link href={`/agents/${encodeURIComponent(name)}/triggers`} className="shrink-0 text-sm text-indigo-600 hover:underline">
          Triggers
        </Link>
      </div>
      <div className="flex shrink-0 items-center gap-2">
        {canEdit ? (
          <>
            <button type="button" className={TOOL} onClick={props.onUndo} disabled={!props.canUndo}>
              Undo
            </button>
            <button type="button" className={TOOL} onClick={props.onRedo} disabled={!props.canRedo}>
              Redo
            </button>
            <button type="button" className={TOOL} onClick={props.onAutoLayout} disabled={readOnly}>
              Auto-layout
            </button>
          </>
        ) : null}
        <button type="button" className={TOOL} onClick={props.onFitView}>
          Fit view
        </button>
        <HelpPopover />
        {canEdit ? (
          <>
            <input aria-label="Version message" placeholder="What changed?" value={props.message} onChange={(e) => props.onMessage(e.target.value)} className="w-40 rounded px-2 py-1 text-xs ring-1 ring-zinc-300" />
            <button type="button" onClick={props.onSave} disabled={props.saveDisabled} className="shrink-0 rounded bg-indigo-600 px-3 py-1 text-sm font-medium text-white hover:bg-indigo-500 disabled:opacity-50">
              Save
            </button>
            {props.run}
          </>
        ) : null}
      </div>
    </header>
  );
}
