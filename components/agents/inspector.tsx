"use client";
// The inspector edits what is selected: an agent (every field), an MCP server,
// a tool, an agent → agent link, or — with nothing selected — the graph's entry
// agent and run limits.
import { useMemo } from "react";
import type { AgentConfig, AgentGraph, McpServerConfig, RunLimits } from "@/lib/agents/schemas";
import { BUILTIN_TOOLS, MCP_TOOL_SEPARATOR } from "@/lib/tools/catalog";
import { knownToolNames, type GraphIssue } from "@/lib/agents/validate";
import { agentNodeId, parseNodeId, updateAgent, type AgentLinkKind } from "@/lib/agents/graph-edit";
import type { DiscoveredTool } from "@/lib/agents/designer-schemas";
import { Field, FieldIssues, INPUT, NumberInput } from "./fields";
import { PromptEditor, contextPaths } from "./prompt-editor";
import { ApprovalRules } from "./approval-rules";
import { McpSettings } from "./mcp-settings";
import { ModelPicker, type ProviderOption } from "./model-picker";
import { HandoffSettings, KindSettings, LINK_MEANING, LinkInspector } from "./orchestration-settings";
import { OutputSchemaEditor } from "./output-schema-editor";
import { PlanSettingsGroup } from "./plan-settings";
import { BudgetReminderSettings, withOnBudget } from "./budget-reminders";
import { GuardrailsSection } from "./guardrails";

type Issues = { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };
type Edit = (change: (graph: AgentGraph) => AgentGraph, key: string) => void;

interface InspectorProps {
  graph: AgentGraph;
  selectedId: string | null;
  /** A selected agent → agent link (shown when no node is selected). */
  selectedLink?: { from: string; to: string; kind: AgentLinkKind } | null;
  issues: Issues;
  readOnly: boolean;
  providers: readonly ProviderOption[];
  discovered: ReadonlyMap<string, readonly DiscoveredTool[]>;
  onDiscovered: (nodeId: string, tools: DiscoveredTool[]) => void;
  /** Keeps a renamed agent (or a link whose kind changed) selected. */
  onRenamed: (nodeId: string) => void;
  edit: Edit;
}

function AgentInspector({ graph, index, props }: { graph: AgentGraph; index: number; props: InspectorProps }) {
  const agent = graph.agents[index];
  const { issues, readOnly, edit, providers, discovered, onDiscovered } = props;
  const knownPaths = useMemo(() => contextPaths(graph.agents.map((a) => a.systemPrompt)), [graph.agents]);
  if (!agent) return null;
  const base = `agents[${index}]`;
  const set = (next: Partial<AgentConfig>, field: string) => edit((g) => updateAgent(g, index, { ...(g.agents[index] ?? agent), ...next }), `agent:${index}:${field}`);
  const toolNames = [
    ...knownToolNames(agent),
    ...agent.mcpServers.flatMap((s) => (s.allowTools ? [] : (discovered.get(`mcp:${agent.name}:${s.name}`) ?? []).map((t) => `${s.name}${MCP_TOOL_SEPARATOR}${t.name}`))),
  ];
  const others = graph.agents.filter((a) => a.name !== agent.name);
  return (
    <div className="space-y-3" data-testid="agent-inspector">
      <h2 className="text-sm font-semibold text-zinc-900">Agent {agent.name}</h2>
      <Field id="agent-name" label="Name" path={`${base}.name`} issues={issues}>
        <input id="agent-name" className={INPUT} value={agent.name} disabled={readOnly} onChange={(e) => {
            set({ name: e.target.value }, "name");
            props.onRenamed(agentNodeId(e.target.value));
          }} />
      </Field>
      <label className="flex items-center gap-2 text-xs text-zinc-700">
        <input type="checkbox" checked={graph.entryAgent === agent.name} disabled={readOnly || graph.entryAgent === agent.name} onChange={() => edit((g) => ({ ...g, entryAgent: agent.name }), "entry")} />
        Entry agent (runs start here)
      </label>
      <KindSettings agent={agent} base={base} issues={issues} readOnly={readOnly} set={set} />
      <Field id="agent-description" label="Discovery description (shown to parent agents)" path={`${base}.description`} issues={issues}>
        <textarea id="agent-description" rows={2} className={INPUT} value={agent.description} disabled={readOnly} onChange={(e) => set({ description: e.target.value }, "description")} />
      </Field>
      <Field id="agent-prompt" label="System prompt" path={`${base}.systemPrompt`} issues={issues}>
        <PromptEditor id="agent-prompt" value={agent.systemPrompt} readOnly={readOnly} knownPaths={knownPaths} onChange={(v) => set({ systemPrompt: v }, "prompt")} />
      </Field>
      <Field id="agent-model" label="Model" path={`${base}.model`} issues={issues}>
        <ModelPicker id="agent-model" value={agent.model} providers={providers} disabled={readOnly} onChange={(v) => set({ model: v }, "model")} />
      </Field>
      <div className="grid grid-cols-3 gap-2">
        <Field id="agent-temperature" label="Temperature" path={`${base}.temperature`} issues={issues}>
          <NumberInput id="agent-temperature" step={0.1} value={agent.temperature} disabled={readOnly} onChange={(v) => set({ temperature: v }, "temperature")} />
        </Field>
        <Field id="agent-max-output" label="Max output tokens" path={`${base}.maxOutputTokens`} issues={issues}>
          <NumberInput id="agent-max-output" value={agent.maxOutputTokens} disabled={readOnly} onChange={(v) => set({ maxOutputTokens: v }, "maxOutputTokens")} />
        </Field>
        <Field id="agent-max-iterations" label="Max iterations" path={`${base}.maxIterations`} issues={issues}>
          <NumberInput id="agent-max-iterations" value={agent.maxIterations} disabled={readOnly} onChange={(v) => set({ maxIterations: v }, "maxIterations")} />
        </Field>
      </div>
      <fieldset>
        <legend className="text-xs font-medium text-zinc-700">Built-in tools</legend>
        {BUILTIN_TOOLS.map((t) => (
          <label key={t.id} className="flex items-center gap-1 text-xs" title={t.description}>
            <input type="checkbox" disabled={readOnly} checked={agent.tools.includes(t.id)} onChange={(e) => set({ tools: e.target.checked ? [...agent.tools, t.id] : agent.tools.filter((x) => x !== t.id) }, `tool:${t.id}`)} />
            <span className="font-mono">{t.id}</span>
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend className="text-xs font-medium text-zinc-700">{agent.kind === "router" ? "Children (the router passes tasks to one)" : "Sub-agents (answer back)"}</legend>
        {agent.kind === "router" ? null : <p className="text-[11px] text-zinc-500">{LINK_MEANING.sub}</p>}
        {others.length === 0 ? <p className="text-xs text-zinc-500">Add another agent to link it.</p> : null}
        {others.map((o) => (
          <label key={o.name} className="flex items-center gap-1 text-xs">
            <input type="checkbox" disabled={readOnly} checked={agent.subAgents.includes(o.name)} onChange={(e) => set({ subAgents: e.target.checked ? [...agent.subAgents, o.name] : agent.subAgents.filter((x) => x !== o.name) }, `sub:${o.name}`)} />
            {o.name}
          </label>
        ))}
        <FieldIssues issues={issues} path={`${base}.subAgents`} />
      </fieldset>
      <HandoffSettings graph={graph} agent={agent} base={base} issues={issues} readOnly={readOnly} set={set} />
      {agent.kind === "router" ? (
        agent.outputSchema ? (
          <section className="space-y-1">
            <FieldIssues issues={issues} path={`${base}.outputSchema`} />
            <button type="button" className="text-xs text-red-700 hover:underline" disabled={readOnly} onClick={() => set({ outputSchema: undefined }, "outputSchema:remove")}>
              Remove output schema
            </button>
          </section>
        ) : null
      ) : (
        <OutputSchemaEditor value={agent.outputSchema} base={base} issues={issues} readOnly={readOnly} onChange={(next, key) => set({ outputSchema: next }, key)} />
      )}
      <section className="space-y-2">
        <h3 className="text-xs font-medium text-zinc-700">MCP servers</h3>
        {agent.mcpServers.map((server, s) => (
          <McpSettings
            key={s}
            server={server}
            base={`${base}.mcpServers[${s}]`}
            issues={issues}
            readOnly={readOnly}
            discovered={discovered.get(`mcp:${agent.name}:${server.name}`)}
            onDiscovered={(tools) => onDiscovered(`mcp:${agent.name}:${server.name}`, tools)}
            onChange={(next: McpServerConfig, key) => set({ mcpServers: agent.mcpServers.map((x, k) => (k === s ? next : x)) }, `mcp:${s}:${key}`)}
            onRemove={() => set({ mcpServers: agent.mcpServers.filter((_, k) => k !== s) }, `mcp:${s}:remove`)}
          />
        ))}
      </section>
      <section>
        <h3 className="mb-1 text-xs font-medium text-zinc-700">Approval rules</h3>
        <ApprovalRules agent={agent} index={index} toolNames={toolNames} issues={issues} readOnly={readOnly} onChange={(rules, key) => set({ approvalRules: rules }, key)} />
      </section>
      <GuardrailsSection agent={agent} index={index} toolNames={toolNames} issues={issues} readOnly={readOnly} onChange={(guardrails, key) => set({ guardrails }, key)} />
    </div>
  );
}

const LIMIT_FIELDS: { key: keyof RunLimits; label: string }[] = [
  { key: "tokenBudget", label: "Token budget" },
  { key: "maxDepth", label: "Max sub-agent depth" },
  { key: "runTimeoutSeconds", label: "Run timeout (s)" },
  { key: "subAgentIdleTimeoutSeconds", label: "Sub-agent idle timeout (s)" },
  { key: "followUpWindowSeconds", label: "Follow-up window (s)" },
  { key: "continueAsNewAfterEvents", label: "Continue as new after events" },
  { key: "maxSteps", label: "Max steps (all agents)" },
  { key: "maxHandoffs", label: "Max handoffs" },
];

function GraphInspector({ graph, props }: { graph: AgentGraph; props: InspectorProps }) {
  const { issues, readOnly, edit } = props;
  const setLimit = (next: Partial<RunLimits>, key: string) => edit((g) => ({ ...g, limits: { ...g.limits, ...next } }), `limits:${key}`);
  return (
    <div className="space-y-3" data-testid="graph-inspector">
      <h2 className="text-sm font-semibold text-zinc-900">Graph</h2>
      <p className="text-xs text-zinc-500">Select a node to edit it. These settings apply to every run of this graph.</p>
      <Field id="graph-entry" label="Entry agent" path="entryAgent" issues={issues}>
        <select id="graph-entry" className={INPUT} value={graph.entryAgent} disabled={readOnly} onChange={(e) => edit((g) => ({ ...g, entryAgent: e.target.value }), "entry")}>
          {graph.agents.map((a) => (
            <option key={a.name}>{a.name}</option>
          ))}
        </select>
      </Field>
      <h3 className="text-xs font-semibold text-zinc-800">Run limits</h3>
      <div className="grid grid-cols-2 gap-2" role="group" aria-label="Run limits">
        {LIMIT_FIELDS.map(({ key, label }) => (
          <Field key={key} id={`limit-${key}`} label={label} path={`limits.${key}`} issues={issues}>
            <NumberInput id={`limit-${key}`} value={graph.limits[key] as number} disabled={readOnly} onChange={(v) => setLimit({ [key]: v }, key)} />
          </Field>
        ))}
        <Field id="limit-toolErrorPolicy" label="On tool error" path="limits.toolErrorPolicy" issues={issues}>
          <select id="limit-toolErrorPolicy" className={INPUT} value={graph.limits.toolErrorPolicy} disabled={readOnly} onChange={(e) => setLimit({ toolErrorPolicy: e.target.value as RunLimits["toolErrorPolicy"] }, "toolErrorPolicy")}>
            <option value="continue">continue (the model sees the error)</option>
            <option value="fail">fail the run</option>
          </select>
        </Field>
        <Field id="limit-onBudget" label="At the token budget" path="limits.onBudget" issues={issues}>
          <select id="limit-onBudget" className={INPUT} value={graph.limits.onBudget} disabled={readOnly} onChange={(e) => edit((g) => ({ ...g, limits: withOnBudget(g.limits, e.target.value as RunLimits["onBudget"]) }), "limits:onBudget")}>
            <option value="fail">fail the run</option>
            <option value="ask">ask an approver for more</option>
          </select>
        </Field>
        <Field id="limit-followUps" label="A message while the run works" path="limits.followUps" issues={issues}>
          <select id="limit-followUps" className={INPUT} value={graph.limits.followUps} disabled={readOnly} onChange={(e) => setLimit({ followUps: e.target.value as RunLimits["followUps"] }, "followUps")}>
            <option value="enqueue">queue it (answered after the turn)</option>
            <option value="reject">refuse it (409) until the run answers</option>
            <option value="interrupt">interrupt the turn and answer both</option>
          </select>
        </Field>
      </div>
      <BudgetReminderSettings graph={graph} issues={issues} readOnly={readOnly} edit={edit} />
      <p className="text-[11px] text-zinc-500">Max steps counts iterations across every agent of a run (handoffs and repairs included); each agent also keeps its own max iterations.</p>
      <PlanSettingsGroup graph={graph} issues={issues} readOnly={readOnly} edit={edit} />
    </div>
  );
}

export function Inspector(props: InspectorProps) {
  const { graph, selectedId } = props;
  const parsed = selectedId ? parseNodeId(selectedId) : null;
  if (parsed?.kind === "agent" || parsed?.kind === "mcp") {
    const index = graph.agents.findIndex((a) => a.name === parsed.agent);
    if (index >= 0) return <AgentInspector key={index} graph={graph} index={index} props={props} />;
  }
  if (!parsed && props.selectedLink) {
    const { from, to, kind } = props.selectedLink;
    return <LinkInspector graph={graph} from={from} to={to} kind={kind} issues={props.issues} readOnly={props.readOnly} edit={props.edit} onKindChanged={props.onRenamed} />;
  }
  if (parsed?.kind === "tool") {
    const info = BUILTIN_TOOLS.find((t) => t.id === parsed.tool);
    const users = graph.agents.filter((a) => a.tools.includes(parsed.tool)).map((a) => a.name);
    return (
      <div className="space-y-2 text-sm" data-testid="tool-inspector">
        <h2 className="font-semibold">Tool {parsed.tool}</h2>
        <p className="text-zinc-600">{info?.description ?? "Not a built-in tool."}</p>
        {info?.sideEffect ? <p className="text-xs text-amber-700">Side-effecting: runs at most once per call.</p> : null}
        <p className="text-xs text-zinc-500">Used by: {users.join(", ") || "no agent yet — connect an agent's bottom handle to it"}</p>
      </div>
    );
  }
  return <GraphInspector graph={graph} props={props} />;
}
