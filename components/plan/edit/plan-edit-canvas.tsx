"use client";
// A plan drawn for editing: the same left-to-right layout as the run page's
// DAG (plan-layout.ts), with handles to draw a dependency (from the node that
// is needed to the node that needs it), a remove button on each card, and the
// live check drawn where it applies — a cycle's nodes and edges in red, named
// on the canvas, a node's own problems (unknown agent…) on its card.
import { memo, useCallback, useMemo, useState } from "react";
import { Handle, MarkerType, Panel, Position, ReactFlow, ReactFlowProvider, type Connection, type Edge, type Node, type NodeProps, type NodeTypes, type OnDelete, type OnEdgesChange, type OnNodesChange } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "@/components/graph/designer.css";
import type { Plan, PlanNode } from "@/lib/contract/plan";
import { edgeKey, planEdges, type PlanEdge } from "@/lib/plans/diff";
import type { PlanCheck } from "@/lib/plans/edit";
import { fittedViewport, layoutPlan, MIN_ZOOM, PLAN_NODE_SIZE } from "../plan-layout";

/** What is selected on the canvas: a node, or a dependency by its edge key. */
export type PlanSelection = { kind: "node"; id: string } | { kind: "edge"; source: string; target: string } | null;

interface EditCardData extends Record<string, unknown> {
  node: PlanNode;
  problems: readonly string[];
  inCycle: boolean;
  onRemove: (id: string) => void;
}

type EditFlowNode = Node<EditCardData, "planEditNode">;

/** Handles big enough to grab at the zoom a fitted plan opens at (the hit area stays ≥ 12 px down to 60 %). */
const HANDLE_STYLE = { width: 20, height: 20, background: "#6366f1", border: "2px solid white" } as const;
const HIDDEN_HANDLE = { opacity: 0, pointerEvents: "none" } as const;

function EditCardView({ data, selected }: NodeProps<EditFlowNode>) {
  const { node, problems, inCycle, onRemove } = data;
  const bad = inCycle || problems.length > 0;
  return (
    <div
      className={`rounded-lg border-2 bg-white px-3 py-2 text-xs ${bad ? "border-red-500 bg-red-50" : "border-zinc-300"} ${selected ? "outline outline-2 outline-offset-2 outline-indigo-600" : ""}`}
      style={{ width: PLAN_NODE_SIZE.width, height: PLAN_NODE_SIZE.height }}
      data-testid={`plan-edit-node-${node.id}`}
      data-cycle={inCycle ? "true" : undefined}
      data-problems={problems.length || undefined}
      title={[node.objective, ...problems].join("\n")}
    >
      <Handle id="in" type="target" position={Position.Left} style={HANDLE_STYLE} aria-label={`${node.id}: needs (drop a dependency here)`} />
      {/* Where an edge back to the left (one closing a cycle) leaves and enters: under the card, so it shows. */}
      <Handle id="back-in" type="target" position={Position.Bottom} style={HIDDEN_HANDLE} isConnectable={false} />
      <Handle id="back-out" type="source" position={Position.Bottom} style={HIDDEN_HANDLE} isConnectable={false} />
      <div className="flex items-center justify-between gap-2">
        <span className="truncate font-mono text-[11px] text-zinc-500">{node.id}</span>
        <button
          type="button"
          className="nodrag nopan rounded px-1 text-sm leading-none text-zinc-500 hover:bg-red-100 hover:text-red-700"
          aria-label={`Remove node ${node.id}`}
          onClick={(event) => {
            event.stopPropagation();
            onRemove(node.id);
          }}
        >
          ×
        </button>
      </div>
      <div className="truncate text-sm font-semibold text-zinc-900">{node.agent}</div>
      <p className="line-clamp-2 text-zinc-700">{node.objective || <span className="italic text-zinc-400">no objective</span>}</p>
      {problems.length ? <p className="truncate text-[11px] text-red-700">{problems[0]}</p> : inCycle ? <p className="text-[11px] font-semibold text-red-700">on a cycle</p> : null}
      <Handle id="out" type="source" position={Position.Right} style={HANDLE_STYLE} aria-label={`${node.id}: is needed by (drag to a node)`} />
    </div>
  );
}

const EditCard = memo(EditCardView);

/** The edges around a cycle named as ids (each depends on the next): from each next id to the one before it. */
function cycleEdges(cycle: readonly string[]): PlanEdge[] {
  return cycle.slice(0, -1).map((id, i) => ({ source: cycle[i + 1] ?? id, target: id }));
}
const NODE_TYPES: NodeTypes = { planEditNode: EditCard };
const CANVAS_HEIGHT = 380;
const NO_PROBLEMS: readonly string[] = [];

export interface PlanEditCanvasProps {
  plan: Plan;
  check: PlanCheck;
  selection: PlanSelection;
  onSelect: (selection: PlanSelection) => void;
  onConnect: (source: string, target: string) => void;
  onRemoveNode: (id: string) => void;
  onRemoveEdge: (source: string, target: string) => void;
}

export function PlanEditCanvas(props: PlanEditCanvasProps) {
  return (
    <ReactFlowProvider>
      <PlanEditCanvasInner {...props} />
    </ReactFlowProvider>
  );
}

function PlanEditCanvasInner({ plan, check, selection, onSelect, onConnect, onRemoveNode, onRemoveEdge }: PlanEditCanvasProps) {
  const edgesOfPlan = useMemo(() => planEdges(plan), [plan]);
  // Laid out again when nodes or dependencies change (not when an objective does); the canvas refits with it.
  const structure = `${plan.nodes.map((n) => n.id).join(",")}|${edgesOfPlan.map(edgeKey).join(",")}`;
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const positions = useMemo(() => layoutPlan(plan.nodes.map((n) => n.id), edgesOfPlan), [structure]);
  const [width, setWidth] = useState<number | null>(null);
  const measureRef = useCallback((element: HTMLDivElement | null) => {
    if (element) setWidth(element.clientWidth);
  }, []);
  const viewport = useMemo(() => (width === null ? null : fittedViewport(positions, width, CANVAS_HEIGHT)), [positions, width]);

  const nodes = useMemo<EditFlowNode[]>(
    () =>
      plan.nodes.map((node) => ({
        id: node.id,
        type: "planEditNode",
        position: positions.get(node.id) ?? { x: 0, y: 0 },
        data: { node, problems: check.nodeProblems.get(node.id) ?? NO_PROBLEMS, inCycle: check.cycleNodes.has(node.id), onRemove: onRemoveNode },
        selected: selection?.kind === "node" && selection.id === node.id,
        draggable: false,
        width: PLAN_NODE_SIZE.width,
        height: PLAN_NODE_SIZE.height,
      })),
    [plan, positions, check, selection, onRemoveNode],
  );
  const edges = useMemo<Edge[]>(
    () =>
      edgesOfPlan.map((e) => {
        const key = edgeKey(e);
        const inCycle = check.cycleEdges.has(key);
        // An edge that runs back to the left (one that closes a cycle) goes under the cards instead of behind them.
        const backwards = (positions.get(e.source)?.x ?? 0) >= (positions.get(e.target)?.x ?? 0);
        return {
          id: key,
          type: backwards ? "smoothstep" : "default",
          sourceHandle: backwards ? "back-out" : "out",
          targetHandle: backwards ? "back-in" : "in",
          source: e.source,
          target: e.target,
          selected: selection?.kind === "edge" && edgeKey(selection) === key,
          animated: inCycle,
          label: inCycle ? "cycle" : undefined,
          labelStyle: inCycle ? { fill: "#b91c1c", fontWeight: 600 } : undefined,
          className: inCycle ? "link-handoff" : undefined,
          style: inCycle ? { stroke: "#dc2626", strokeWidth: 2.5 } : { strokeWidth: 2 },
          markerEnd: { type: MarkerType.ArrowClosed, color: inCycle ? "#dc2626" : "#71717a" },
          interactionWidth: 24,
        };
      }),
    [edgesOfPlan, check, selection, positions],
  );

  const connect = useCallback((c: Connection) => {
    if (c.source && c.target && c.source !== c.target) onConnect(c.source, c.target);
  }, [onConnect]);
  const remove: OnDelete<EditFlowNode, Edge> = useCallback(
    ({ nodes: removedNodes, edges: removedEdges }) => {
      for (const n of removedNodes) onRemoveNode(n.id);
      for (const e of removedEdges) onRemoveEdge(e.source, e.target);
      onSelect(null);
    },
    [onRemoveNode, onRemoveEdge, onSelect],
  );

  // Selecting with the keyboard (Tab to an edge or node, then Enter) arrives as a change, not a click.
  const onNodesChange: OnNodesChange<EditFlowNode> = useCallback(
    (changes) => {
      for (const c of changes) if (c.type === "select" && c.selected) onSelect({ kind: "node", id: c.id });
    },
    [onSelect],
  );
  const edgeById = useMemo(() => new Map(edgesOfPlan.map((e) => [edgeKey(e), e])), [edgesOfPlan]);
  const onEdgesChange: OnEdgesChange = useCallback(
    (changes) => {
      for (const c of changes) {
        const e = c.type === "select" && c.selected ? edgeById.get(c.id) : undefined;
        if (e) onSelect({ kind: "edge", source: e.source, target: e.target });
      }
    },
    [onSelect, edgeById],
  );

  return (
    <div ref={measureRef} className="rounded-lg border border-zinc-200 bg-zinc-50" style={{ height: CANVAS_HEIGHT }} data-testid="plan-edit-canvas" data-nodes={plan.nodes.length} data-edges={edgesOfPlan.length}>
      {viewport ? (
        <ReactFlow<EditFlowNode, Edge>
          key={structure}
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          onConnect={connect}
          onNodesChange={onNodesChange}
          onEdgesChange={onEdgesChange}
          onNodeClick={(_event, node) => onSelect(selection?.kind === "node" && selection.id === node.id ? null : { kind: "node", id: node.id })}
          onEdgeClick={(_event, edge) => onSelect({ kind: "edge", source: edge.source, target: edge.target })}
          onPaneClick={() => onSelect(null)}
          onDelete={remove}
          nodesDraggable={false}
          nodesConnectable
          elementsSelectable
          deleteKeyCode={["Delete", "Backspace"]}
          defaultViewport={viewport}
          minZoom={MIN_ZOOM}
          proOptions={{ hideAttribution: true }}
          aria-label="Plan editor canvas"
        >
          {check.cycles.length ? (
            <Panel position="top-left">
              <div className="rounded-md border border-red-300 bg-white/95 px-2 py-1 text-xs text-red-800 shadow-sm" data-testid="plan-edit-cycle">
                {check.cycles.map((cycle) => (
                  <div key={cycle.join(">")} className="space-y-1">
                    <div>
                      Cycle: <span className="font-mono">{cycle.join(" → ")}</span> (each waits for the next) — delete one of its dependencies:
                    </div>
                    <div className="flex flex-wrap gap-1">
                      {cycleEdges(cycle).map((e) => (
                        <button
                          key={edgeKey(e)}
                          type="button"
                          className="rounded border border-red-300 px-1.5 py-0.5 font-mono hover:bg-red-100"
                          aria-label={`Delete dependency ${e.source} → ${e.target}`}
                          onClick={() => onRemoveEdge(e.source, e.target)}
                        >
                          {e.source} → {e.target} ×
                        </button>
                      ))}
                    </div>
                  </div>
                ))}
              </div>
            </Panel>
          ) : null}
        </ReactFlow>
      ) : null}
    </div>
  );
}
