"use client";
// The designer's canvas: renders an agent graph and reports what the user does
// (move, connect, delete, select, drop from the palette) as intents; the owner
// turns them into graph edits, so every change goes through undo and validation.
import { useCallback, useMemo, useRef, useState, type DragEvent } from "react";
import {
  Background,
  Controls,
  MiniMap,
  ReactFlow,
  useReactFlow,
  useStore,
  type Connection,
  type Edge,
  type NodeChange,
  type EdgeChange,
  type OnDelete,
} from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import "./designer.css";
import type { AgentGraph } from "@/lib/agents/schemas";
import { canConnect, type NodeId, type Point } from "@/lib/agents/graph-edit";
import type { NodeIssues } from "@/lib/agents/graph-issues";
import type { DiffMark } from "@/lib/agents/graph-diff";
import { createFlowBuilder, type DesignerNode } from "./flow-model";
import { NODE_TYPES } from "./nodes";

/** The MIME type palette items carry while dragged onto the canvas. */
export const PALETTE_MIME = "application/x-zap-palette";

export interface CanvasProps {
  graph: AgentGraph;
  issues: ReadonlyMap<string, NodeIssues>;
  selected: ReadonlySet<string>;
  readOnly: boolean;
  marks?: ReadonlyMap<string, DiffMark>;
  edgeMarks?: ReadonlyMap<string, DiffMark>;
  discovered?: ReadonlyMap<string, readonly string[]>;
  onMove?: (positions: Record<NodeId, Point>, phase: "start" | "move" | "end") => void;
  onConnect?: (source: NodeId, target: NodeId) => void;
  onDelete?: (nodes: NodeId[], edges: string[]) => void;
  /**
   * Receives an update of the selection, not the selection: React Flow reports
   * node and edge selection changes in separate calls within one click, and each
   * must apply on top of the other (a state setter does exactly that).
   */
  onSelect?: (update: (previous: ReadonlySet<string>) => ReadonlySet<string>) => void;
  onDropItem?: (item: string, at: Point, onAgent: string | null) => void;
}

/** Never zoom in past 100 % to fit: a small graph stays readable at its real size. */
export const FIT_VIEW = { maxZoom: 1, padding: 0.2 } as const;

const MINIMAP_COLOR = (node: DesignerNode) => (node.type === "agent" ? "#6366f1" : node.type === "mcp" ? "#0ea5e9" : "#a1a1aa");

/**
 * The dot grid, only while zoomed in enough to help placing nodes: zoomed out,
 * its thousands of tiny dots are repainted on every pan frame and show nothing.
 */
function ZoomedBackground() {
  const visible = useStore((state) => state.transform[2] >= 0.5);
  return visible ? <Background /> : null;
}

export function DesignerCanvas(props: CanvasProps) {
  const { graph, issues, selected, readOnly, marks, edgeMarks, discovered, onMove, onConnect, onDelete, onSelect, onDropItem } = props;
  const flow = useReactFlow();
  const [build] = useState(createFlowBuilder);
  const [measured, setMeasured] = useState<ReadonlyMap<string, { width: number; height: number }>>(new Map());
  const dragging = useRef(false);

  const { nodes, edges } = useMemo(
    () => build({ graph, issues, selected, marks, edgeMarks, discovered, measured }),
    [build, graph, issues, selected, marks, edgeMarks, discovered, measured],
  );

  /** Applies select changes to a selection, dropping ids that no longer exist (renamed or deleted since). */
  const applySelection = useCallback(
    (changes: readonly { id: string; selected: boolean }[]) =>
      onSelect?.((previous) => {
        const ids = new Set<string>([...nodes.map((n) => n.id), ...edges.map((e) => e.id)]);
        const next = new Set([...previous].filter((id) => ids.has(id)));
        for (const change of changes) {
          if (change.selected) next.add(change.id);
          else next.delete(change.id);
        }
        return next;
      }),
    [nodes, edges, onSelect],
  );

  const onNodesChange = useCallback(
    (changes: NodeChange<DesignerNode>[]) => {
      const positions: Record<string, Point> = {};
      let moved = false;
      let ended = false;
      let sizes: Map<string, { width: number; height: number }> | null = null;
      const selection: { id: string; selected: boolean }[] = [];
      for (const change of changes) {
        if (change.type === "dimensions" && change.dimensions) {
          sizes ??= new Map();
          sizes.set(change.id, change.dimensions);
        } else if (change.type === "position" && change.position && !readOnly) {
          positions[change.id] = change.position;
          moved = true;
          if (change.dragging === false) ended = true;
        } else if (change.type === "select") {
          selection.push({ id: change.id, selected: change.selected });
        }
      }
      if (sizes) {
        const found = sizes;
        setMeasured((m) => new Map([...m, ...found]));
      }
      if (moved || ended) {
        if (!dragging.current) {
          dragging.current = true;
          onMove?.(positions, "start");
        } else onMove?.(positions, ended ? "end" : "move");
        if (ended) dragging.current = false;
      }
      if (selection.length) applySelection(selection);
    },
    [onMove, readOnly, applySelection],
  );

  const onEdgesChange = useCallback(
    (changes: EdgeChange<Edge>[]) => {
      const selection = changes.flatMap((change) => (change.type === "select" ? [{ id: change.id, selected: change.selected }] : []));
      if (selection.length) applySelection(selection);
    },
    [applySelection],
  );

  const handleDelete: OnDelete<DesignerNode, Edge> = useCallback(({ nodes: n, edges: e }) => onDelete?.(n.map((x) => x.id), e.map((x) => x.id)), [onDelete]);
  const handleConnect = useCallback((c: Connection) => onConnect?.(c.source, c.target), [onConnect]);
  const isValidConnection = useCallback((c: Connection | Edge) => canConnect(graph, c.source, c.target), [graph]);

  const onDragOver = useCallback((event: DragEvent) => {
    if (!event.dataTransfer.types.includes(PALETTE_MIME)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = "copy";
  }, []);
  const onDrop = useCallback(
    (event: DragEvent) => {
      const item = event.dataTransfer.getData(PALETTE_MIME);
      if (!item || readOnly) return;
      event.preventDefault();
      const at = flow.screenToFlowPosition({ x: event.clientX, y: event.clientY });
      const hit = flow.getIntersectingNodes({ x: at.x, y: at.y, width: 1, height: 1 }).find((n) => n.type === "agent");
      onDropItem?.(item, at, hit ? String((hit.data as { name: string }).name) : null);
    },
    [flow, onDropItem, readOnly],
  );

  return (
    <ReactFlow<DesignerNode, Edge>
      nodes={nodes}
      edges={edges}
      nodeTypes={NODE_TYPES}
      onNodesChange={onNodesChange}
      onEdgesChange={onEdgesChange}
      onConnect={handleConnect}
      onDelete={handleDelete}
      isValidConnection={isValidConnection}
      onDragOver={onDragOver}
      onDrop={onDrop}
      nodesDraggable={!readOnly}
      nodesConnectable={!readOnly}
      deleteKeyCode={readOnly ? null : ["Delete", "Backspace"]}
      multiSelectionKeyCode={["Shift", "Meta", "Control"]}
      selectionKeyCode="Shift"
      fitView
      fitViewOptions={FIT_VIEW}
      minZoom={0.05}
      proOptions={{ hideAttribution: true }}
      aria-label="Agent graph canvas"
    >
      <ZoomedBackground />
      <Controls showInteractive={false} />
      <MiniMap<DesignerNode> nodeColor={MINIMAP_COLOR} pannable zoomable ariaLabel="Minimap" />
    </ReactFlow>
  );
}
