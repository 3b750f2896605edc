// The two pages bench/designer opens: `?mode=designer` renders the designer's
// canvas (custom nodes, validation badges, the editor's state loop with live
// validation) and `?mode=floor` a bare React Flow page with default nodes.
// Each sets window.__bench when interactive and exposes a validation timer.
import { StrictMode, useCallback, useEffect, useMemo, useState } from "react";
import { createRoot } from "react-dom/client";
import { ReactFlow, ReactFlowProvider, applyNodeChanges, useNodesInitialized, type Edge, type Node, type NodeChange } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "../../app/globals.css";
import { DesignerCanvas } from "../../components/graph/designer-canvas";
import { moveNodes, type NodeId, type Point } from "../../lib/agents/graph-edit";
import { issuesByNode } from "../../lib/agents/graph-issues";
import { validateDraft } from "../../components/agents/use-designer";
import type { AgentGraph } from "../../lib/agents/schemas";
import { benchGraph } from "./graph";

declare global {
  interface Window {
    __bench?: { interactiveAt: number; nodes: number; validate: (runs: number) => number[] };
  }
}

const params = new URLSearchParams(window.location.search);
const size = Number(params.get("n") ?? 100);
const mode = params.get("mode") ?? "designer";
const graph = benchGraph(size);

function ReadySignal({ count }: { count: number }) {
  const initialized = useNodesInitialized();
  useEffect(() => {
    if (!initialized || window.__bench) return;
    // Interactive: nodes measured; one more frame so they are painted.
    requestAnimationFrame(() => {
      window.__bench = { interactiveAt: performance.now(), nodes: count, validate: (runs) => Array.from({ length: runs }, () => validateDraft(graph).ms) };
    });
  }, [initialized, count]);
  return null;
}

function Designer() {
  const [current, setCurrent] = useState<AgentGraph>(graph);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const { entryAgent, agents, limits } = current;
  const validation = useMemo(() => validateDraft({ entryAgent, agents, limits }), [entryAgent, agents, limits]);
  const issues = useMemo(() => issuesByNode({ agents }, validation.errors, validation.warnings), [agents, validation]);
  const onMove = useCallback((positions: Record<NodeId, Point>) => setCurrent((g) => moveNodes(g, positions)), []);
  return (
    <>
      <DesignerCanvas graph={current} issues={issues} selected={selected} readOnly={false} onMove={onMove} onSelect={setSelected} />
      <ReadySignal count={Object.keys(current.layout?.nodes ?? {}).length} />
    </>
  );
}

function Floor() {
  const initial = useMemo(() => {
    const positions = graph.layout?.nodes ?? {};
    const nodes: Node[] = Object.entries(positions).map(([id, position]) => ({ id, position, data: { label: id } }));
    const edges: Edge[] = graph.agents.flatMap((a) => [
      ...a.subAgents.map((s) => ({ id: `${a.name}>${s}`, source: `agent:${a.name}`, target: `agent:${s}` })),
      ...a.tools.map((t) => ({ id: `${a.name}>t:${t}`, source: `agent:${a.name}`, target: `tool:${t}` })),
    ]);
    return { nodes, edges };
  }, []);
  const [nodes, setNodes] = useState(initial.nodes);
  const onNodesChange = useCallback((changes: NodeChange[]) => setNodes((n) => applyNodeChanges(changes, n)), []);
  return (
    <>
      <ReactFlow nodes={nodes} edges={initial.edges} onNodesChange={onNodesChange} fitView minZoom={0.05} />
      <ReadySignal count={nodes.length} />
    </>
  );
}

const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <ReactFlowProvider>{mode === "floor" ? <Floor /> : <Designer />}</ReactFlowProvider>
    </StrictMode>,
  );
}
