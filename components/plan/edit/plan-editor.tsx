"use client";
// The plan editor of a plan approval: the plan on its DAG (add and remove
// nodes, draw and delete dependencies, change a node's agent and objective),
// or the same plan as JSON, with the workflow's checks live under both.
import { useCallback, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input, Select } from "@/components/ui/input";
import type { PlanLimits } from "@/lib/contract/plan-approval";
import { addDependency, addPlanNode, removeDependency, removePlanNode, suggestNodeId, updatePlanNode } from "@/lib/plans/edit";
import { plural } from "@/lib/text/plural";
import { PlanEditCanvas, type PlanSelection } from "./plan-edit-canvas";
import type { PlanEditState } from "./use-plan-edit";

const tabClass = (on: boolean) => `rounded border px-2 py-0.5 ${on ? "border-indigo-500 bg-indigo-50 text-indigo-700" : "border-zinc-300 text-zinc-600 hover:bg-zinc-50"}`;

export function PlanEditor({ state, agents, limits }: { state: PlanEditState; agents: readonly string[]; limits: PlanLimits | null }) {
  const id = useId();
  const { plan, check, edit } = state;
  const [view, setView] = useState<"graph" | "json">("graph");
  const [selection, setSelection] = useState<PlanSelection>(null);
  const onConnect = useCallback((source: string, target: string) => edit((p) => addDependency(p, source, target)), [edit]);
  const onRemoveNode = useCallback(
    (nodeId: string) => {
      edit((p) => removePlanNode(p, nodeId));
      setSelection(null);
    },
    [edit],
  );
  const onRemoveEdge = useCallback((source: string, target: string) => edit((p) => removeDependency(p, source, target)), [edit]);
  const selectedNode = selection?.kind === "node" ? plan.nodes.find((n) => n.id === selection.id) : undefined;
  const selectedEdge = selection?.kind === "edge" && plan.nodes.some((n) => n.id === selection.target && n.dependsOn.includes(selection.source)) ? selection : null;

  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-center gap-2 text-xs text-zinc-600">
        <span role="group" aria-label="Plan editor view" className="flex gap-1">
          <button type="button" aria-pressed={view === "graph"} className={tabClass(view === "graph")} onClick={() => setView("graph")}>
            Graph
          </button>
          <button type="button" aria-pressed={view === "json"} className={tabClass(view === "json")} onClick={() => setView("json")}>
            JSON
          </button>
        </span>
        <span data-testid="plan-edit-size">
          {plural(plan.nodes.length, "node")}
          {limits ? ` of at most ${limits.maxNodes}` : ""} · agents: {agents.join(", ")}
        </span>
      </div>
      {view === "graph" ? (
        <>
          <p className="text-xs text-zinc-600">Drag from a node&apos;s right handle to another node&apos;s left handle to make the second wait for the first. Click a node or a dependency to change or delete it (or press Delete).</p>
          <PlanEditCanvas plan={plan} check={check} selection={selection} onSelect={setSelection} onConnect={onConnect} onRemoveNode={onRemoveNode} onRemoveEdge={onRemoveEdge} />
          {selectedNode ? (
            <NodePanel key={selectedNode.id} state={state} nodeId={selectedNode.id} agents={agents} onClose={() => setSelection(null)} />
          ) : selectedEdge ? (
            <div className="flex items-center gap-2 rounded-md border border-zinc-200 bg-white p-2 text-xs" data-testid="plan-edit-edge">
              <span>
                Dependency <span className="font-mono">{selectedEdge.source}</span> → <span className="font-mono">{selectedEdge.target}</span> ({selectedEdge.target} waits for {selectedEdge.source})
              </span>
              <Button
                type="button"
                variant="danger"
                onClick={() => {
                  onRemoveEdge(selectedEdge.source, selectedEdge.target);
                  setSelection(null);
                }}
              >
                Delete dependency
              </Button>
            </div>
          ) : null}
          <AddNodeForm state={state} agents={agents} limits={limits} onAdded={(nodeId) => setSelection({ kind: "node", id: nodeId })} />
        </>
      ) : (
        <div className="space-y-1">
          <label htmlFor={`${id}-json`} className="block text-xs font-medium text-zinc-700">
            Plan (JSON: nodes with id, agent, objective, dependsOn)
          </label>
          <textarea id={`${id}-json`} spellCheck={false} className="h-72 w-full rounded-md border border-zinc-300 p-2 font-mono text-xs" value={state.jsonText} onChange={(e) => state.typeJson(e.target.value)} />
        </div>
      )}
      {state.problems.length > 0 ? (
        <ul role="alert" aria-label="Plan problems" className="list-disc space-y-0.5 pl-5 text-xs text-red-700">
          {state.problems.map((problem) => (
            <li key={problem}>{problem}</li>
          ))}
        </ul>
      ) : (
        <p className="text-xs text-emerald-700" data-testid="plan-edit-valid">
          The plan passes the workflow&apos;s checks.
        </p>
      )}
    </div>
  );
}

/** The selected node: its agent, objective and what it waits for, and a way to remove it. */
function NodePanel({ state, nodeId, agents, onClose }: { state: PlanEditState; nodeId: string; agents: readonly string[]; onClose: () => void }) {
  const id = useId();
  const node = state.plan.nodes.find((n) => n.id === nodeId);
  if (!node) return null;
  const others = state.plan.nodes.filter((n) => n.id !== nodeId);
  const options = agents.includes(node.agent) ? agents : [node.agent, ...agents];
  return (
    <fieldset className="space-y-2 rounded-md border border-zinc-200 bg-white p-2 text-xs" aria-label={`Node ${nodeId}`} data-testid="plan-edit-node-panel">
      <legend className="px-1 font-mono font-semibold">{nodeId}</legend>
      <div className="flex flex-wrap items-end gap-2">
        <label className="space-y-0.5">
          <span className="block text-zinc-600">Agent</span>
          <Select value={node.agent} onChange={(e) => state.edit((p) => updatePlanNode(p, nodeId, { agent: e.target.value }))}>
            {options.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </label>
        <label className="min-w-64 flex-1 space-y-0.5">
          <span className="block text-zinc-600">Objective</span>
          <Input
            value={node.objective}
            onChange={(e) => state.edit((p) => updatePlanNode(p, nodeId, { objective: e.target.value }))}
            // Enter ends the edit of this field; it does not send the plan.
            onKeyDown={(e) => {
              if (e.key === "Enter") e.preventDefault();
            }}
          />
        </label>
        <Button type="button" variant="danger" onClick={() => state.edit((p) => removePlanNode(p, nodeId))}>
          Remove node
        </Button>
        <Button type="button" variant="ghost" onClick={onClose}>
          Done
        </Button>
      </div>
      {others.length ? (
        <div role="group" aria-labelledby={`${id}-deps`} className="flex flex-wrap gap-x-3 gap-y-1">
          <span id={`${id}-deps`} className="text-zinc-600">
            Waits for:
          </span>
          {others.map((other) => (
            <label key={other.id} className="flex items-center gap-1 font-mono">
              <input
                type="checkbox"
                checked={node.dependsOn.includes(other.id)}
                onChange={(e) => state.edit((p) => (e.target.checked ? addDependency(p, other.id, nodeId) : removeDependency(p, other.id, nodeId)))}
              />
              {other.id}
            </label>
          ))}
        </div>
      ) : null}
    </fieldset>
  );
}

/** A new node: one of the graph's agents, and what it must accomplish; its id comes from the agent. */
function AddNodeForm({ state, agents, limits, onAdded }: { state: PlanEditState; agents: readonly string[]; limits: PlanLimits | null; onAdded: (id: string) => void }) {
  const id = useId();
  const [agent, setAgent] = useState(agents[0] ?? "");
  const [objective, setObjective] = useState("");
  const full = limits !== null && state.plan.nodes.length >= limits.maxNodes;
  const add = () => {
    if (!agent || !objective.trim() || full) return;
    const nodeId = suggestNodeId(state.plan, agent);
    state.edit((p) => addPlanNode(p, { id: nodeId, agent, objective: objective.trim() }));
    setObjective("");
    onAdded(nodeId);
  };
  return (
    <div role="group" aria-label="Add a node" className="flex flex-wrap items-end gap-2 rounded-md border border-dashed border-zinc-300 p-2 text-xs">
      <div className="space-y-0.5">
        <label htmlFor={`${id}-agent`} className="block text-zinc-600">
          New node&apos;s agent
        </label>
        <Select id={`${id}-agent`} value={agent} onChange={(e) => setAgent(e.target.value)}>
          {agents.map((a) => (
            <option key={a} value={a}>
              {a}
            </option>
          ))}
        </Select>
      </div>
      <div className="min-w-64 flex-1 space-y-0.5">
        <label htmlFor={`${id}-objective`} className="block text-zinc-600">
          New node&apos;s objective
        </label>
        <Input
          id={`${id}-objective`}
          value={objective}
          onChange={(e) => setObjective(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              add();
            }
          }}
        />
      </div>
      <Button type="button" variant="secondary" disabled={full || !objective.trim() || !agent} onClick={add}>
        Add node
      </Button>
      {full ? <p className="basis-full text-amber-700">The plan has the most nodes this graph allows ({limits?.maxNodes}); remove one to add another.</p> : null}
    </div>
  );
}
