"use client";
// The editor's document: the draft graph with undo/redo, the version it is
// based on, and a copy in localStorage so an unsaved draft survives a reload.
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AgentGraph } from "@/lib/agents/schemas";
import { validateAgentGraph, type GraphIssue } from "@/lib/agents/validate";
import { importGraphValue } from "@/lib/agents/graph-json";

/** Typing in one field within this window is one undo step. */
const COALESCE_MS = 1000;
const HISTORY_LIMIT = 200;

interface History {
  graph: AgentGraph;
  past: AgentGraph[];
  future: AgentGraph[];
  lastKey: string | null;
  lastAt: number;
}

export interface StoredDraft {
  baseVersion: number;
  graph: AgentGraph;
  savedAt: string;
}

export const draftKey = (agent: string) => `zap:designer-draft:${agent}`;

/** Reads a kept draft; anything that does not validate as a graph's shape is dropped. */
export function readDraft(agent: string): StoredDraft | null {
  try {
    const raw = window.localStorage.getItem(draftKey(agent));
    if (!raw) return null;
    const parsed = JSON.parse(raw) as { baseVersion?: unknown; graph?: unknown; savedAt?: unknown };
    if (typeof parsed.baseVersion !== "number" || typeof parsed.savedAt !== "string") return null;
    // A draft may hold errors the user has not fixed yet; it must still have the graph's shape to be edited.
    const checked = importGraphValue(parsed.graph);
    const graph = checked.ok ? checked.graph : (parsed.graph as AgentGraph);
    if (!Array.isArray(graph?.agents) || typeof graph.entryAgent !== "string") return null;
    return { baseVersion: parsed.baseVersion, graph, savedAt: parsed.savedAt };
  } catch {
    return null;
  }
}

export interface Validation {
  errors: GraphIssue[];
  warnings: GraphIssue[];
  /** How long the pass took, for the status bar and the benchmark. */
  ms: number;
}

/** One pass of the engine's validator, timed (the layout is left out: the engine ignores it; the plan-and-execute settings are in). */
export function validateDraft(graph: Pick<AgentGraph, "entryAgent" | "agents" | "limits"> & Partial<Pick<AgentGraph, "mode" | "plan">>): Validation {
  const started = performance.now();
  const { entryAgent, agents, limits, mode, plan } = graph;
  const result = validateAgentGraph({ entryAgent, agents, limits, ...(mode === undefined ? {} : { mode }), ...(plan === undefined ? {} : { plan }) });
  return { errors: result.errors, warnings: result.warnings, ms: performance.now() - started };
}

/** Validates on every change; moving nodes alone does not re-run it. */
export function useValidation(graph: AgentGraph): Validation {
  const { entryAgent, agents, limits, mode, plan } = graph;
  return useMemo(() => validateDraft({ entryAgent, agents, limits, mode, plan }), [entryAgent, agents, limits, mode, plan]);
}

export function useDesignerDocument(agent: string, saved: { version: number; graph: AgentGraph }, initial: { graph: AgentGraph; baseVersion: number }) {
  const [history, setHistory] = useState<History>({ graph: initial.graph, past: [], future: [], lastKey: null, lastAt: 0 });
  const [baseVersion, setBaseVersion] = useState(initial.baseVersion);
  const [savedGraph, setSavedGraph] = useState(saved.graph);
  // The version savedGraph is: the base until a rebase moves the base to a version never loaded here.
  const [savedVersion, setSavedVersion] = useState(saved.version);
  // The local copy of the draft: the debounce timer and the write it will do (see below).
  const timer = useRef<number | undefined>(undefined);
  const pending = useRef<Omit<StoredDraft, "savedAt"> | null>(null);

  /** One edit; edits with the same key in quick succession (typing) are one undo step. */
  const edit = useCallback((change: (graph: AgentGraph) => AgentGraph, key: string | null = null) => {
    setHistory((h) => {
      const next = change(h.graph);
      if (next === h.graph) return h;
      const now = Date.now();
      const coalesce = key !== null && key === h.lastKey && now - h.lastAt < COALESCE_MS;
      return { graph: next, past: coalesce ? h.past : [...h.past.slice(-HISTORY_LIMIT), h.graph], future: [], lastKey: key, lastAt: now };
    });
  }, []);

  /** Marks an undo point without changing anything (the start of a drag). */
  const checkpoint = useCallback(() => setHistory((h) => ({ ...h, past: [...h.past.slice(-HISTORY_LIMIT), h.graph], future: [], lastKey: null })), []);
  /** Changes the graph without an undo step (a drag in progress, after its checkpoint). */
  const live = useCallback((change: (graph: AgentGraph) => AgentGraph) => setHistory((h) => ({ ...h, graph: change(h.graph) })), []);

  const undo = useCallback(
    () =>
      setHistory((h) => {
        const previous = h.past.at(-1);
        return previous ? { graph: previous, past: h.past.slice(0, -1), future: [h.graph, ...h.future], lastKey: null, lastAt: 0 } : h;
      }),
    [],
  );
  const redo = useCallback(
    () =>
      setHistory((h) => {
        const [next, ...rest] = h.future;
        return next ? { graph: next, past: [...h.past, h.graph], future: rest, lastKey: null, lastAt: 0 } : h;
      }),
    [],
  );

  /** After a save or restore: the new version is the base; undo history stays usable. */
  const markSaved = useCallback((version: number, graph: AgentGraph) => {
    setBaseVersion(version);
    setSavedGraph(graph);
    setSavedVersion(version);
    pending.current = null;
    window.clearTimeout(timer.current);
    window.localStorage.removeItem(draftKey(agent));
  }, [agent]);

  /** Shows a saved version as the new base (after a restore): undoable, and not dirty. */
  const load = useCallback((version: number, graph: AgentGraph) => {
    edit(() => graph);
    markSaved(version, graph);
  }, [edit, markSaved]);

  /** Continues on top of a newer version the user has compared with (after a conflict); the draft stays as it is. */
  const rebase = useCallback((version: number) => setBaseVersion(version), []);

  /** Replaces the draft (restore into the editor, import, discard) as one undoable edit. */
  const replace = useCallback((graph: AgentGraph) => edit(() => graph), [edit]);

  const dirty = history.graph !== savedGraph;

  // Keep the draft locally (debounced) while it differs from the saved version. A write still waiting is done at
  // once when the page goes away (reload, tab closed, another page of the app): an edit made in the last 250 ms
  // before a reload was lost (an e2e run on an idle machine saw it: fill, save refused, reload, no draft).
  const writePending = useCallback(() => {
    window.clearTimeout(timer.current);
    const draft = pending.current;
    pending.current = null;
    if (!draft) return;
    try {
      window.localStorage.setItem(draftKey(agent), JSON.stringify({ ...draft, savedAt: new Date().toISOString() } satisfies StoredDraft));
    } catch {
      // Storage full or disabled: the unload warning still protects the draft.
    }
  }, [agent]);
  useEffect(() => {
    window.clearTimeout(timer.current);
    if (!dirty) {
      pending.current = null;
      window.localStorage.removeItem(draftKey(agent));
      return;
    }
    pending.current = { baseVersion, graph: history.graph };
    timer.current = window.setTimeout(writePending, 250);
  }, [agent, baseVersion, dirty, history.graph, writePending]);
  useEffect(() => {
    window.addEventListener("pagehide", writePending);
    return () => {
      window.removeEventListener("pagehide", writePending);
      // Leaving the editor inside the app unmounts it without a pagehide.
      writePending();
    };
  }, [writePending]);

  // Warn before leaving with unsaved changes.
  useEffect(() => {
    if (!dirty) return;
    const warn = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      event.returnValue = "";
    };
    // Links inside the app navigate without unloading the page: ask before following one.
    const confirmLeave = (event: MouseEvent) => {
      const link = event.target instanceof Element ? event.target.closest("a[href]") : null;
      if (!link || link.hasAttribute("download") || link.getAttribute("target") === "_blank") return;
      if (!window.confirm("This agent has unsaved changes. Leave anyway? The draft is kept in this browser.")) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", warn);
    document.addEventListener("click", confirmLeave, true);
    return () => {
      window.removeEventListener("beforeunload", warn);
      document.removeEventListener("click", confirmLeave, true);
    };
  }, [dirty]);

  return {
    graph: history.graph,
    canUndo: history.past.length > 0,
    canRedo: history.future.length > 0,
    baseVersion,
    savedGraph,
    savedVersion,
    dirty,
    edit,
    checkpoint,
    live,
    undo,
    redo,
    replace,
    markSaved,
    load,
    rebase,
  };
}
