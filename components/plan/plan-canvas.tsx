"use client";
// The live DAG of a plan-and-execute run: one card per plan node, laid out
// left to right by dependency, coloured by status, with its duration, tokens
// and cost; running nodes pulse and their incoming edges animate. Built from
// a plan view (lib/runs/plan-view.ts), so it follows the run page's live tail
// without a query per node. Clicking a node selects it. No Next.js or data
// fetching here: bench/plan-dag renders it on a bare page.
import { memo, useCallback, useMemo, useState } from "react";
import { Controls, Handle, MiniMap, Position, ReactFlow, ReactFlowProvider, useStore, type Edge, type Node, type NodeMouseHandler, type NodeProps, type NodeTypes } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "@/components/graph/designer.css";
import { nodeCost, PLAN_NODE_STATUS_LABEL, type PlanNodeView, type PlanNodeViewStatus, type PlanView } from "@/lib/runs/plan-view";
import { formatCost, formatTokens, type PriceBook } from "@/lib/runs/pricing";
import { formatDuration } from "@/components/runs/usage";
import { PlanHeader, RunningDuration } from "./plan-header";
import { fittedViewport, layoutPlan, MIN_ZOOM, PLAN_NODE_SIZE } from "./plan-layout";

interface PlanCardData extends Record<string, unknown> {
  node: PlanNodeView;
  cost: number | null;
  /** What the card shows, as one string: the view is rebuilt per event, and a card whose figures did not change is not re-rendered. */
  signature: string;
}

type PlanFlowNode = Node<PlanCardData, "planNode">;

// Borders, not shadows: hundreds of cards repaint on every pan frame (see components/graph/nodes.tsx).
export const STATUS_STYLE: Record<PlanNodeViewStatus, { frame: string; badge: string; minimap: string }> = {
  pending: { frame: "border border-zinc-300 bg-white", badge: "bg-zinc-100 text-zinc-700", minimap: "#a1a1aa" },
  running: { frame: "border-2 border-indigo-500 bg-indigo-50 animate-pulse", badge: "bg-indigo-600 text-white", minimap: "#6366f1" },
  // Not animated: nothing moves until someone decides in the inbox.
  awaiting_approval: { frame: "border-2 border-orange-500 bg-orange-50", badge: "bg-orange-600 text-white", minimap: "#f97316" },
  completed: { frame: "border border-emerald-500 bg-emerald-50", badge: "bg-emerald-600 text-white", minimap: "#10b981" },
  failed: { frame: "border-2 border-red-500 bg-red-50", badge: "bg-red-600 text-white", minimap: "#ef4444" },
  skipped: { frame: "border border-dashed border-amber-500 bg-amber-50 opacity-80", badge: "bg-amber-500 text-white", minimap: "#f59e0b" },
  // Stopped with the plan (cancelled, timed out, out of budget): grey like skipped work, but solid.
  cancelled: { frame: "border-2 border-zinc-400 bg-zinc-100 opacity-80", badge: "bg-zinc-600 text-white", minimap: "#71717a" },
};



/**
 * Below this zoom a card's text is a few pixels high: cards draw as their
 * status colour only, which halves the time a 500-node plan takes to appear
 * (fitted, all of it shows far zoomed out). Zooming in brings the text back.
 */
const DETAIL_ZOOM = 0.4;

function PlanCardView({ data, selected }: NodeProps<PlanFlowNode>) {
  const { node, cost } = data;
  const style = STATUS_STYLE[node.status];
  const detailed = useStore((state) => state.transform[2] >= DETAIL_ZOOM);
  if (!detailed) {
    return (
      <div
        className={`rounded-lg ${style.frame} ${selected ? "outline outline-4 outline-offset-4 outline-indigo-600" : ""}`}
        style={{ width: PLAN_NODE_SIZE.width, height: PLAN_NODE_SIZE.height }}
        data-testid={`plan-node-${node.id}`}
        data-status={node.status}
        title={`${node.id} · ${node.agent} · ${PLAN_NODE_STATUS_LABEL[node.status]}`}
      >
        <Handle type="target" position={Position.Left} isConnectable={false} />
        <Handle type="source" position={Position.Right} isConnectable={false} />
      </div>
    );
  }
  return (
    <div
      className={`rounded-lg px-3 py-2 text-xs ${style.frame} ${selected ? "outline outline-2 outline-offset-2 outline-indigo-600" : ""}`}
      style={{ width: PLAN_NODE_SIZE.width, height: PLAN_NODE_SIZE.height }}
      data-testid={`plan-node-${node.id}`}
      data-status={node.status}
      title={node.reason ?? node.objective}
    >
      <Handle type="target" position={Position.Left} isConnectable={false} />
      <div className="flex items-center justify-between gap-2">
        <span className="truncate font-mono text-[11px] text-zinc-500">{node.id}</span>
        <span className={`rounded px-1.5 text-[10px] font-semibold ${style.badge}`}>{PLAN_NODE_STATUS_LABEL[node.status]}</span>
      </div>
      <div className="truncate text-sm font-semibold text-zinc-900">{node.agent}</div>
      <p className="line-clamp-2 text-zinc-700">{node.objective}</p>
      <div className="mt-0.5 flex gap-2 whitespace-nowrap text-[11px] text-zinc-600">
        <span>{node.status === "running" || node.status === "awaiting_approval" ? <RunningDuration node={node} /> : node.durationMs === null ? "—" : formatDuration(node.durationMs)}</span>
        {node.usage ? (
          <span>
            {formatTokens(node.usage)} · {formatCost(cost)}
          </span>
        ) : null}
        {node.attempts > 1 ? <span className="text-amber-700">{node.attempts} attempts</span> : null}
      </div>
      <Handle type="source" position={Position.Right} isConnectable={false} />
    </div>
  );
}

const PlanCard = memo(PlanCardView, (a, b) => a.selected === b.selected && a.data.signature === b.data.signature);

const NODE_TYPES: NodeTypes = { planNode: PlanCard };
const CANVAS_HEIGHT = 420;

const minimapColor = (n: PlanFlowNode) => STATUS_STYLE[n.data.node.status].minimap;

/** Everything a card shows that can change while the run works. */
function cardSignature(node: PlanNodeView, cost: number | null): string {
  return [node.status, node.runId, node.attempts, node.endedAt, node.usage?.inputTokens, node.usage?.outputTokens, node.reason, cost].join("|");
}

export interface PlanCanvasProps {
  view: PlanView;
  /** The model each agent of the graph runs with, to cost a node's tokens. */
  agentModels: Readonly<Record<string, string>>;
  prices: PriceBook;
  selectedId: string | null;
  /** A click on a node selects it; a click on the selected node clears the selection. */
  onSelect: (nodeId: string | null) => void;
  /** Controls shown beside the header (the view switch). */
  toolbar?: React.ReactNode;
}

export function PlanCanvas(props: PlanCanvasProps) {
  return (
    <ReactFlowProvider>
      <PlanCanvasInner {...props} />
    </ReactFlowProvider>
  );
}

function PlanCanvasInner({ view, agentModels, prices, selectedId, onSelect, toolbar }: PlanCanvasProps) {
  const planSeq = view.planSeq;
  // The layout depends on the plan alone: status changes never lay it out again.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const positions = useMemo(() => layoutPlan(view.nodes.map((n) => n.id), view.edges), [planSeq]);
  // The canvas is drawn once its width is known, at the viewport that fits the plan.
  const [width, setWidth] = useState<number | null>(null);
  const measureRef = useCallback((element: HTMLDivElement | null) => {
    if (element) setWidth(element.clientWidth);
  }, []);
  const viewport = useMemo(() => (width === null ? null : fittedViewport(positions, width, CANVAS_HEIGHT)), [positions, width]);
  const nodes = useMemo<PlanFlowNode[]>(() => {
    return view.nodes.map((node) => {
      const cost = nodeCost(node, agentModels, prices);
      return {
        id: node.id,
        type: "planNode",
        position: positions.get(node.id) ?? { x: 0, y: 0 },
        data: { node, cost, signature: cardSignature(node, cost) },
        selected: node.id === selectedId,
        draggable: false,
        connectable: false,
        width: PLAN_NODE_SIZE.width,
        height: PLAN_NODE_SIZE.height,
      };
    });
  }, [view, positions, agentModels, prices, selectedId]);

  const edges = useMemo<Edge[]>(() => {
    const status = new Map(view.nodes.map((n) => [n.id, n.status]));
    return view.edges.map((e) => ({
      id: `${e.source}->${e.target}`,
      source: e.source,
      target: e.target,
      animated: status.get(e.target) === "running",
      className: status.get(e.source) === "failed" ? "link-handoff" : undefined,
      selectable: false,
    }));
  }, [view]);

  const onNodeClick: NodeMouseHandler<PlanFlowNode> = useCallback((_event, node) => onSelect(node.id === selectedId ? null : node.id), [onSelect, selectedId]);

  return (
    <section className="space-y-2" aria-label="Plan">
      <PlanHeader view={view}>{toolbar}</PlanHeader>
      <div ref={measureRef} className="rounded-lg border border-zinc-200 bg-zinc-50" style={{ height: CANVAS_HEIGHT }} data-testid="plan-dag" data-nodes={view.nodes.length}>
        {viewport ? (
        <ReactFlow<PlanFlowNode, Edge>
          key={planSeq}
          nodes={nodes}
          edges={edges}
          nodeTypes={NODE_TYPES}
          onNodeClick={onNodeClick}
          nodesDraggable={false}
          nodesConnectable={false}
          edgesFocusable={false}
          deleteKeyCode={null}
          onlyRenderVisibleElements={view.nodes.length > 150}
          defaultViewport={viewport}
          minZoom={MIN_ZOOM}
          proOptions={{ hideAttribution: true }}
          aria-label="Plan DAG"
        >
          <Controls showInteractive={false} />
          {view.nodes.length > 20 ? <MiniMap<PlanFlowNode> nodeColor={minimapColor} pannable zoomable ariaLabel="Plan minimap" /> : null}
        </ReactFlow>
        ) : null}
      </div>
    </section>
  );
}
