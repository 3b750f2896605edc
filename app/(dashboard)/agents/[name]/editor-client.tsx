"use client";
// The agent designer: palette, canvas, inspector, problems and history around
// one draft document. Every change is a graph edit (undoable, validated live);
// saving appends a version on top of the one the draft started from.
import { useCallback, useMemo, useRef, useState } from "react";
import { ReactFlowProvider, useReactFlow } from "@xyflow/react";
import type { AgentConfig, AgentGraph } from "@/lib/agents/schemas";
import type { DiscoveredTool, VersionSummary } from "@/lib/agents/designer-schemas";
import { addAgent, addMcpServer, addTool, agentNodeId, connect, deleteElements, moveNodes, parseEdgeId, parseNodeId, handoffEdgeId, pasteAgents, subAgentEdgeId, type NodeId, type Point } from "@/lib/agents/graph-edit";
import { issuesByNode } from "@/lib/agents/graph-issues";
import { diffGraphs, unionGraph, type GraphDiff } from "@/lib/agents/graph-diff";
import { exportGraphJson, importGraphJson } from "@/lib/agents/graph-json";
import type { GraphIssue } from "@/lib/agents/validate";
import { saveAgentVersionAction } from "@/lib/actions/save-agent-version";
import { restoreAgentVersionAction } from "@/lib/actions/restore-agent-version";
import { promoteAgentVersionAction } from "@/lib/actions/promote-agent-version";
import { getAgentVersionAction } from "@/lib/actions/get-agent-version";
import { listAgentVersionsAction } from "@/lib/actions/list-agent-versions";
import { useQueryClient } from "@tanstack/react-query";
import { plural } from "@/lib/text/plural";
import { DesignerCanvas, FIT_VIEW } from "@/components/graph/designer-canvas";
import { withFullLayout } from "@/components/graph/flow-model";
import { freeSpot } from "@/lib/agents/free-spot";
import { useRevealPlacedNode } from "@/components/graph/reveal-node";
import { Inspector } from "@/components/agents/inspector";
import { ProblemsPanel } from "@/components/agents/problems-panel";
import { Palette } from "@/components/agents/palette";
import { DesignerToolbar } from "@/components/agents/designer-toolbar";
import { DesignerRun, type SaveOutcome } from "@/components/agents/designer-run";
import { FieldChanges, HistoryPanel, type DiffSide } from "@/components/agents/history-panel";
import type { ProviderOption } from "@/components/agents/model-picker";
import { readDraft, useDesignerDocument, useValidation } from "@/components/agents/use-designer";
import { useShortcuts } from "@/components/agents/use-shortcuts";
import { formatDateTime } from "@/lib/format/figures";

export interface EditorProps {
  name: string;
  saved: { version: number; graph: AgentGraph };
  versions: VersionSummary[];
  canEdit: boolean;
  providers: ProviderOption[];
}

interface DiffView {
  label: string;
  graph: AgentGraph;
  diff: GraphDiff;
}

const EMPTY = new Set<string>();

/** The graph's default version: the newest that is not a draft (what a conflict asks to build on). */
const defaultOf = (versions: readonly VersionSummary[]) => versions.find((v) => !v.draft)?.version ?? null;

function Editor({ name, saved, versions: initialVersions, canEdit, providers }: EditorProps) {
  const flow = useReactFlow();
  const { reveal: revealPlaced, cancel: cancelReveal } = useRevealPlacedNode();
  const queryClient = useQueryClient();
  // Rendered on the client only (see editor-loader), so a kept draft is read before the first render.
  const [kept] = useState(() => (canEdit ? readDraft(name) : null));
  const [savedLayout] = useState(() => withFullLayout(saved.graph));
  const doc = useDesignerDocument(name, { version: saved.version, graph: savedLayout }, kept ?? { graph: savedLayout, baseVersion: saved.version });
  const checked = useValidation(doc.graph);
  // What only the server can check (output schemas compiled by Ajv, which the
  // browser's CSP forbids) comes back from a refused save; it marks nodes and
  // fields like the live checks until the graph changes.
  const [refused, setRefused] = useState<{ graph: AgentGraph; errors: GraphIssue[] } | null>(null);
  const validation = useMemo(() => (refused && refused.graph === doc.graph ? { ...checked, errors: [...checked.errors, ...refused.errors] } : checked), [checked, refused, doc.graph]);
  const [selected, setSelected] = useState<ReadonlySet<string>>(EMPTY);
  const [discovered, setDiscovered] = useState<ReadonlyMap<string, readonly DiscoveredTool[]>>(new Map());
  const [versions, setVersions] = useState(initialVersions);
  const [message, setMessage] = useState("");
  const [status, setStatus] = useState<{ tone: "ok" | "error" | "info"; text: string } | null>(kept ? { tone: "info", text: `Restored your unsaved draft from ${formatDateTime(kept.savedAt)} (based on v${kept.baseVersion}). The draft is kept in this browser until you save it.` } : null);
  const [conflict, setConflict] = useState<{ text: string; latest: number } | null>(null);
  const [diffView, setDiffView] = useState<DiffView | null>(null);
  const [importErrors, setImportErrors] = useState<GraphIssue[]>([]);
  const [busy, setBusy] = useState(false);
  const clipboard = useRef<{ agent: AgentConfig; position: Point }[]>([]);
  const readOnly = !canEdit || diffView !== null;

  // Not recomputed while nodes move: issues depend on the agents only.
  const agents = doc.graph.agents;
  const issues = useMemo(() => issuesByNode({ agents }, validation.errors, validation.warnings), [agents, validation]);
  const discoveredNames = useMemo(() => new Map([...discovered].map(([id, tools]) => [id, tools.map((t) => t.name)])), [discovered]);
  // Edge ids hold a ">" (names never do), so a tool edge is not mistaken for a tool node.
  const selectedId = [...selected].find((id) => !id.includes(">") && parseNodeId(id) !== null) ?? null;
  const selectedLink = (() => {
    for (const id of selected) {
      const edge = parseEdgeId(id);
      if (edge?.kind === "sub" || edge?.kind === "handoff") return { from: edge.from, to: edge.to, kind: edge.kind };
    }
    return null;
  })();
  const selectedAgent = (() => {
    const parsed = selectedId ? parseNodeId(selectedId) : null;
    return parsed?.kind === "agent" || parsed?.kind === "mcp" ? parsed.agent : null;
  })();

  const { edit } = doc;
  const onMove = useCallback(
    (positions: Record<NodeId, Point>, phase: "start" | "move" | "end") => {
      if (phase === "start") doc.checkpoint();
      doc.live((g) => moveNodes(g, positions));
    },
    [doc],
  );
  /**
   * A new agent → agent link starts as a sub-agent and is selected, so the
   * inspector offers to make it a handoff right away.
   */
  const onConnect = useCallback(
    (source: NodeId, target: NodeId) => {
      edit((g) => connect(g, source, target));
      const from = parseNodeId(source);
      const to = parseNodeId(target);
      if (from?.kind !== "agent" || to?.kind !== "agent") return;
      const handedOff = doc.graph.agents.some((a) => a.name === from.agent && a.handoffs.includes(to.agent));
      setSelected(new Set([handedOff ? handoffEdgeId(from.agent, to.agent) : subAgentEdgeId(from.agent, to.agent)]));
    },
    [edit, doc.graph.agents],
  );
  const onDelete = useCallback(
    (nodes: NodeId[], edges: string[]) => {
      edit((g) => deleteElements(g, nodes, edges));
      setSelected(EMPTY);
    },
    [edit],
  );

  /** Adds a palette item at a point (a drop) or beside the view's centre (keyboard). */
  const addItem = useCallback(
    (item: string, at?: Point, onAgent?: string | null) => {
      if (!canEdit) return;
      const bounds = document.querySelector(".react-flow")?.getBoundingClientRect();
      const target = onAgent ?? selectedAgent;
      const layout = doc.graph.layout?.nodes ?? {};
      // From the keyboard, a tool or server goes below the agent it attaches to, an agent beside the selected
      // one, anything else at the view's centre; then to the nearest free place there (never on another node).
      const owner = item !== "agent" && target ? layout[agentNodeId(target)] : undefined;
      const beside = item === "agent" && selectedAgent ? layout[agentNodeId(selectedAgent)] : undefined;
      const near =
        at ??
        (owner ? { x: owner.x, y: owner.y + 150 } : null) ??
        (beside ? { x: beside.x + 264, y: beside.y } : null) ??
        (bounds ? flow.screenToFlowPosition({ x: bounds.left + bounds.width / 2, y: bounds.top + bounds.height / 2 }) : { x: 0, y: 0 });
      const spot = (g: AgentGraph) => freeSpot(g.layout?.nodes ?? {}, near);
      if (item === "agent") {
        let created = "";
        edit((g) => {
          const result = addAgent(g, spot(g));
          created = result.name;
          return result.graph;
        });
        if (created) setSelected(new Set([agentNodeId(created)]));
      } else if (item === "mcp") {
        edit((g) => addMcpServer(g, target ?? g.entryAgent, spot(g)).graph);
      } else if (item.startsWith("tool:")) {
        edit((g) => addTool(g, item.slice(5), spot(g), target ?? undefined));
      }
      // Shown whole once it is drawn: beside the selected agent may be past the pane's edge.
      // With the agent it was placed beside or attached to, so that one stays in view too.
      const anchor = item === "agent" ? selectedAgent : item === "mcp" || item.startsWith("tool:") ? (target ?? doc.graph.entryAgent) : null;
      revealPlaced(freeSpot(layout, near), anchor ? [agentNodeId(anchor)] : []);
    },
    [canEdit, doc.graph.layout, doc.graph.entryAgent, edit, flow, selectedAgent, revealPlaced],
  );

  /** Saves the draft as a new version; says why not when it cannot (Save and run shows that too). */
  async function save(): Promise<SaveOutcome> {
    if (!canEdit || busy) return { ok: false, reason: "Not saved: a save is already under way." };
    if (validation.errors.length) {
      const text = `Not saved: fix ${plural(validation.errors.length, "error")} first (see Problems). Warnings do not block saving.`;
      setStatus({ tone: "error", text });
      return { ok: false, reason: text };
    }
    setBusy(true);
    const graph = doc.graph;
    const result = await saveAgentVersionAction({ name, baseVersion: doc.baseVersion, message, graph });
    setBusy(false);
    if (result.ok) {
      doc.markSaved(result.data.version, graph);
      setVersions((v) => [result.data, ...v.map((x) => ({ ...x, isDefault: false }))]);
      setMessage("");
      setConflict(null);
      setStatus({ tone: "ok", text: `Saved version ${result.data.version}.` });
      // The run dialog lists versions from a short-lived cache: the new one must be there when Save and run opens it.
      void queryClient.invalidateQueries({ queryKey: ["launch-options", name] });
      return { ok: true, version: result.data.version };
    }
    if (result.error.code === "conflict") {
      const listed = await listAgentVersionsAction({ name });
      if (listed.ok) setVersions(listed.data);
      setConflict({ text: result.error.message, latest: (listed.ok ? defaultOf(listed.data) : null) ?? doc.baseVersion });
      setStatus(null);
      return { ok: false, reason: result.error.message };
    }
    const issues = result.error.issues ?? [];
    setRefused({ graph, errors: issues.map((i) => ({ path: i.path, message: i.message, code: i.path.endsWith(".outputSchema.schema") ? "invalid_output_schema" : "invalid" })) });
    const text = [result.error.message, ...issues.map((i) => `${i.path}: ${i.message}`)].join(" · ");
    setStatus({ tone: "error", text });
    return { ok: false, reason: text };
  }

  async function graphOf(side: DiffSide): Promise<AgentGraph | null> {
    if (side === "draft") return doc.graph;
    const result = await getAgentVersionAction({ name, version: side });
    if (!result.ok) {
      setStatus({ tone: "error", text: result.error.message });
      return null;
    }
    return result.data.graph;
  }

  async function compare(from: DiffSide, to: DiffSide) {
    const [a, b] = await Promise.all([graphOf(from), graphOf(to)]);
    if (!a || !b) return;
    const label = (s: DiffSide) => (s === "draft" ? "your draft" : `v${s}`);
    setDiffView({ label: `${label(from)} → ${label(to)}`, graph: withFullLayout(unionGraph(a, b)), diff: diffGraphs(a, b) });
    setSelected(EMPTY);
  }

  async function restore(version: number) {
    setBusy(true);
    const result = await restoreAgentVersionAction({ name, version, baseVersion: doc.baseVersion });
    const stored = result.ok ? await getAgentVersionAction({ name, version: result.data.version }) : null;
    setBusy(false);
    if (!result.ok) {
      if (result.error.code === "conflict") setConflict({ text: result.error.message, latest: defaultOf(versions) ?? doc.baseVersion });
      else setStatus({ tone: "error", text: result.error.message });
      return;
    }
    if (stored?.ok) doc.load(result.data.version, withFullLayout(stored.data.graph));
    setVersions((v) => [result.data, ...v.map((x) => ({ ...x, isDefault: false }))]);
    setDiffView(null);
    setStatus({ tone: "ok", text: `Restored v${version} as version ${result.data.version}.` });
  }

  /** Makes a draft version the default (what runs without a version number take). */
  async function promote(version: number) {
    setBusy(true);
    const result = await promoteAgentVersionAction({ name, version });
    const listed = result.ok ? await listAgentVersionsAction({ name }) : null;
    setBusy(false);
    if (!result.ok) return setStatus({ tone: "error", text: result.error.message });
    if (listed?.ok) setVersions(listed.data);
    void queryClient.invalidateQueries({ queryKey: ["launch-options", name] });
    setStatus({ tone: "ok", text: `Promoted v${version}: it is now the default version.` });
  }

  function importText(text: string) {
    const result = importGraphJson(text);
    if (!result.ok) {
      setImportErrors(result.errors);
      return;
    }
    setImportErrors([]);
    doc.replace(withFullLayout(result.graph));
    setStatus({ tone: "info", text: "Imported into the draft. Save to make it a version." });
  }

  function exportDraft() {
    const blob = new Blob([exportGraphJson(name, null, doc.graph)], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = `${name}-draft.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  }

  useShortcuts({
    save: () => void save(),
    undo: doc.undo,
    redo: doc.redo,
    selectAll: () => setSelected(new Set(doc.graph.agents.map((a) => agentNodeId(a.name)))),
    copy: () => {
      const nodes = doc.graph.layout?.nodes ?? {};
      clipboard.current = doc.graph.agents.filter((a) => selected.has(agentNodeId(a.name))).map((agent) => ({ agent, position: nodes[agentNodeId(agent.name)] ?? { x: 0, y: 0 } }));
    },
    paste: () => {
      if (!clipboard.current.length || readOnly) return;
      let names: string[] = [];
      edit((g) => {
        const pasted = pasteAgents(g, clipboard.current, { x: 40, y: 40 });
        names = pasted.names;
        return pasted.graph;
      });
      setSelected(new Set(names.map(agentNodeId)));
    },
    enabled: diffView === null,
    canEdit,
  });

  const canvasGraph = diffView?.graph ?? doc.graph;
  return (
    <div className="-mx-8 -my-8 flex h-screen flex-col">
      <DesignerToolbar
        name={name}
        baseVersion={doc.baseVersion}
        dirty={doc.dirty}
        canEdit={canEdit}
        readOnly={readOnly}
        canUndo={doc.canUndo}
        canRedo={doc.canRedo}
        saveDisabled={busy || diffView !== null}
        message={message}
        onMessage={setMessage}
        onUndo={doc.undo}
        onRedo={doc.redo}
        onAutoLayout={() => { cancelReveal(); edit((g) => withFullLayout(g, true)); window.requestAnimationFrame(() => void flow.fitView(FIT_VIEW)); }}
        onFitView={() => { cancelReveal(); void flow.fitView(FIT_VIEW); }}
        onSave={() => void save()}
        run={<DesignerRun agent={name} draft={doc.graph} dirty={doc.dirty} baseVersion={doc.baseVersion} saved={{ version: doc.savedVersion, graph: doc.savedGraph }} save={save} />}
      />
      {!canEdit ? (
        <p className="bg-zinc-100 px-4 py-1 text-xs text-zinc-700" data-testid="read-only-banner">
          Read-only: your role can view this agent graph but not change it.
        </p>
      ) : null}
      {status ? (
        <p role={status.tone === "error" ? "alert" : "status"} data-testid={`designer-${status.tone}`} className={`px-4 py-1 text-xs ${status.tone === "error" ? "bg-red-50 text-red-800" : status.tone === "ok" ? "bg-emerald-50 text-emerald-800" : "bg-indigo-50 text-indigo-800"}`}>
          {status.text}
        </p>
      ) : null}
      {conflict ? (
        <div role="alert" data-testid="designer-conflict" className="flex flex-wrap items-center gap-3 bg-amber-50 px-4 py-2 text-xs text-amber-900">
          <span>{conflict.text}</span>
          <button type="button" className="underline" onClick={() => void compare(conflict.latest, "draft")}>
            Compare v{conflict.latest} with your draft
          </button>
          <button type="button" className="underline" onClick={() => { doc.rebase(conflict.latest); setConflict(null); setStatus({ tone: "info", text: `Your draft now builds on v${conflict.latest}; saving will replace its content with your draft.` }); }}>
            Continue on top of v{conflict.latest}
          </button>
        </div>
      ) : null}
      {diffView ? (
        <div className="flex items-center gap-3 bg-sky-50 px-4 py-1 text-xs text-sky-900" data-testid="diff-banner">
          Showing differences {diffView.label}: <span className="text-emerald-700">added</span> · <span className="text-red-700">removed</span> · <span className="text-amber-700">changed</span>
          <button type="button" className="ml-auto underline" onClick={() => setDiffView(null)}>
            Close diff
          </button>
        </div>
      ) : null}
      <div className="flex min-h-0 flex-1">
        <Palette onAdd={(item) => addItem(item)} disabled={readOnly} />
        <div className="flex min-w-0 flex-1 flex-col">
          <div className="min-h-0 flex-1" data-testid="canvas">
            <DesignerCanvas
              graph={canvasGraph}
              issues={diffView ? new Map() : issues}
              selected={selected}
              readOnly={readOnly}
              marks={diffView?.diff.nodes}
              edgeMarks={diffView?.diff.edges}
              discovered={discoveredNames}
              onMove={onMove}
              onConnect={onConnect}
              onDelete={onDelete}
              onSelect={setSelected}
              onDropItem={(item, at, onAgent) => addItem(item, at, onAgent)}
            />
          </div>
          {diffView ? null : <ProblemsPanel graph={doc.graph} errors={validation.errors} warnings={validation.warnings} validatedInMs={validation.ms} onSelect={(ids) => setSelected(new Set(ids.slice(0, 1)))} />}
        </div>
        <aside className="w-96 shrink-0 space-y-6 overflow-auto border-l border-zinc-200 bg-white p-3" aria-label="Inspector">
          {diffView ? (
            <section>
              <h2 className="mb-1 text-sm font-semibold">Changed fields ({diffView.label})</h2>
              <FieldChanges changes={diffView.diff.fields} />
            </section>
          ) : (
            <Inspector
              graph={doc.graph}
              selectedId={selectedId}
              selectedLink={selectedLink}
              issues={validation}
              readOnly={readOnly}
              providers={providers}
              discovered={discovered}
              onDiscovered={(id, tools) => setDiscovered((m) => new Map(m).set(id, tools))}
              onRenamed={(id) => setSelected(new Set([id]))}
              edit={edit}
            />
          )}
          <HistoryPanel agent={name} versions={versions} baseVersion={doc.baseVersion} canEdit={canEdit} busy={busy} onCompare={(a, b) => void compare(a, b)} onRestore={(v) => void restore(v)} onPromote={(v) => void promote(v)} onImport={importText} onExportDraft={exportDraft} importErrors={importErrors} />
        </aside>
      </div>
    </div>
  );
}

export default function EditorClient(props: EditorProps) {
  return (
    <ReactFlowProvider>
      <Editor {...props} />
    </ReactFlowProvider>
  );
}
