"use client";
// How an agent works with others: its kind (a router picks one child per task),
// the router's settings, the agents it may hand off to and what they see, and
// the inspector of one agent → agent link (sub-agent or handoff).
import type { AgentConfig, AgentGraph, RouterSettings } from "@/lib/agents/schemas";
import { HANDOFF_CONTEXTS, routerSettingsSchema } from "@/lib/agents/schemas";
import { handoffEdgeId, setLinkKind, subAgentEdgeId, updateAgent, type AgentLinkKind } from "@/lib/agents/graph-edit";
import type { GraphIssue } from "@/lib/agents/validate";
import { Field, FieldIssues, INPUT, NumberInput } from "./fields";

type Issues = { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };
type SetAgent = (next: Partial<AgentConfig>, field: string) => void;

/** The difference between the two kinds of agent → agent link, in one line each (seed §7). */
export const LINK_MEANING: Record<AgentLinkKind, string> = {
  sub: "A sub-agent answers back: the caller asks it, gets its answer and carries on.",
  handoff: "A handoff transfers control for good: the receiving agent takes over the conversation and its answer is the run's answer.",
};

const CONTEXT_LABEL: Record<(typeof HANDOFF_CONTEXTS)[number], string> = {
  summary: "a summary of the conversation",
  recent: "the last N messages",
  full: "the full transcript",
};

/** Kind, and for a router its threshold, default agent and attempts. */
export function KindSettings({ agent, base, issues, readOnly, set }: { agent: AgentConfig; base: string; issues: Issues; readOnly: boolean; set: SetAgent }) {
  const router: RouterSettings = agent.router ?? routerSettingsSchema.parse({});
  const setRouter = (next: Partial<RouterSettings>, key: string) => set({ router: { ...router, ...next } }, `router:${key}`);
  return (
    <section className="space-y-2">
      <Field id="agent-kind" label="Kind" path={`${base}.kind`} issues={issues}>
        <select
          id="agent-kind"
          className={INPUT}
          value={agent.kind}
          disabled={readOnly}
          onChange={(e) => (e.target.value === "router" ? set({ kind: "router", router }, "kind") : set({ kind: "agent", router: undefined }, "kind"))}
        >
          <option value="agent">agent (answers the task itself)</option>
          <option value="router">router (passes each task to one of its children)</option>
        </select>
      </Field>
      {agent.kind === "router" ? null : <FieldIssues issues={issues} path={`${base}.router`} />}
      {agent.kind === "router" ? (
        <div className="space-y-2 rounded-md bg-sky-50 p-2" data-testid="router-settings">
          <p className="text-xs text-sky-900">
            The router picks one child per task with a confidence; below the threshold the task goes to the decision&apos;s fallback, else to the default agent. A child that fails is routed again, up to the max attempts.
          </p>
          <div className="grid grid-cols-2 gap-2">
            <Field id="router-threshold" label="Confidence threshold (0–1)" path={`${base}.router.threshold`} issues={issues}>
              <NumberInput id="router-threshold" step={0.05} value={router.threshold} disabled={readOnly} onChange={(v) => setRouter({ threshold: v }, "threshold")} />
            </Field>
            <Field id="router-attempts" label="Max attempts" path={`${base}.router.maxAttempts`} issues={issues}>
              <NumberInput id="router-attempts" value={router.maxAttempts} disabled={readOnly} onChange={(v) => setRouter({ maxAttempts: v }, "maxAttempts")} />
            </Field>
          </div>
          <Field id="router-default" label="Default agent (takes low-confidence tasks)" path={`${base}.router.defaultAgent`} issues={issues}>
            <select
              id="router-default"
              className={INPUT}
              value={router.defaultAgent ?? ""}
              disabled={readOnly}
              onChange={(e) => setRouter({ defaultAgent: e.target.value || undefined }, "defaultAgent")}
            >
              <option value="">none (the decision&apos;s fallback, else its pick)</option>
              {agent.subAgents.map((child) => (
                <option key={child} value={child}>
                  {child}
                </option>
              ))}
              {router.defaultAgent !== undefined && !agent.subAgents.includes(router.defaultAgent) ? <option value={router.defaultAgent}>{router.defaultAgent} (not a child)</option> : null}
            </select>
          </Field>
          {agent.subAgents.length === 0 ? <p className="text-xs text-zinc-600">Connect the router to its children on the canvas (or tick them under Children).</p> : null}
        </div>
      ) : null}
    </section>
  );
}

/**
 * The agents this one may hand off to, and what they see of the conversation.
 * Targets are chips plus an "add" select rather than one checkbox per agent, so
 * an agent's name labels only its sub-agent checkbox.
 */
export function HandoffSettings({ graph, agent, base, issues, readOnly, set }: { graph: AgentGraph; agent: AgentConfig; base: string; issues: Issues; readOnly: boolean; set: SetAgent }) {
  if (agent.kind === "router") return <FieldIssues issues={issues} path={`${base}.handoffs`} />;
  const candidates = graph.agents.filter((a) => a.name !== agent.name && !agent.handoffs.includes(a.name));
  return (
    <fieldset className="space-y-1" data-testid="handoff-settings">
      <legend className="text-xs font-medium text-zinc-700">Handoffs (takes over)</legend>
      <p className="text-[11px] text-zinc-500">{LINK_MEANING.handoff}</p>
      <ul className="flex flex-wrap gap-1">
        {agent.handoffs.map((target) => (
          <li key={target} className="flex items-center gap-1 rounded-full bg-orange-50 px-2 py-0.5 text-xs text-orange-800 ring-1 ring-orange-200">
            {target}
            <button type="button" disabled={readOnly} className="text-orange-700 hover:text-red-700" onClick={() => set({ handoffs: agent.handoffs.filter((x) => x !== target) }, `handoff:${target}`)}>
              ×<span className="sr-only"> remove the handoff to {target}</span>
            </button>
          </li>
        ))}
      </ul>
      {candidates.length ? (
        <select
          aria-label="Add a handoff"
          className={INPUT}
          value=""
          disabled={readOnly}
          onChange={(e) => e.target.value && set({ handoffs: [...agent.handoffs, e.target.value] }, `handoff:${e.target.value}`)}
        >
          <option value="">add a handoff to…</option>
          {candidates.map((o) => (
            <option key={o.name} value={o.name}>
              {o.name}
            </option>
          ))}
        </select>
      ) : null}
      <FieldIssues issues={issues} path={`${base}.handoffs`} />
      {agent.handoffs.length > 0 ? <HandoffContextFields agent={agent} base={base} issues={issues} readOnly={readOnly} set={set} /> : null}
    </fieldset>
  );
}

/** What the receiving agent of this agent's handoffs sees. */
export function HandoffContextFields({ agent, base, issues, readOnly, set }: { agent: AgentConfig; base: string; issues: Issues; readOnly: boolean; set: SetAgent }) {
  return (
    <div className="grid grid-cols-2 gap-2">
      <Field id="handoff-context" label="Handoff context (what the receiver sees)" path={`${base}.handoffContext`} issues={issues}>
        <select id="handoff-context" className={INPUT} value={agent.handoffContext} disabled={readOnly} onChange={(e) => set({ handoffContext: e.target.value as AgentConfig["handoffContext"] }, "handoffContext")}>
          {HANDOFF_CONTEXTS.map((c) => (
            <option key={c} value={c}>
              {CONTEXT_LABEL[c]}
            </option>
          ))}
        </select>
      </Field>
      {agent.handoffContext === "recent" ? (
        <Field id="handoff-recent" label="Recent messages (N)" path={`${base}.handoffRecentMessages`} issues={issues}>
          <NumberInput id="handoff-recent" value={agent.handoffRecentMessages} disabled={readOnly} onChange={(v) => set({ handoffRecentMessages: v }, "handoffRecentMessages")} />
        </Field>
      ) : null}
    </div>
  );
}

/** The inspector of an agent → agent link: its kind, what that means, and (for a handoff) the sender's context setting. */
export function LinkInspector(props: {
  graph: AgentGraph;
  from: string;
  to: string;
  /** The kind the selected edge was drawn as; the graph decides when it has changed since. */
  kind: AgentLinkKind;
  issues: Issues;
  readOnly: boolean;
  edit: (change: (graph: AgentGraph) => AgentGraph, key: string) => void;
  /** Selects the link under its new edge id after its kind changed. */
  onKindChanged: (edgeId: string) => void;
}) {
  const { graph, from, to, issues, readOnly, edit } = props;
  const index = graph.agents.findIndex((a) => a.name === from);
  const sender = graph.agents[index];
  if (!sender) return null;
  const linkedAs = (k: AgentLinkKind) => (k === "sub" ? sender.subAgents : sender.handoffs).includes(to);
  const kind: AgentLinkKind = linkedAs(props.kind) ? props.kind : linkedAs("handoff") ? "handoff" : "sub";
  const change = (next: AgentLinkKind) => {
    edit((g) => setLinkKind(g, from, to, next), "link-kind");
    props.onKindChanged(next === "sub" ? subAgentEdgeId(from, to) : handoffEdgeId(from, to));
  };
  const router = sender.kind === "router";
  const set: SetAgent = (next, field) => edit((g) => updateAgent(g, index, { ...(g.agents[index] ?? sender), ...next }), `agent:${index}:${field}`);
  return (
    <div className="space-y-3" data-testid="link-inspector">
      <h2 className="text-sm font-semibold text-zinc-900">
        Link {from} → {to}
      </h2>
      <fieldset className="space-y-1">
        <legend className="text-xs font-medium text-zinc-700">Kind of link</legend>
        {(["sub", "handoff"] as const).map((k) => (
          <label key={k} className="flex items-center gap-1 text-xs">
            <input type="radio" name="link-kind" checked={kind === k} disabled={readOnly || (router && k === "handoff")} onChange={() => change(k)} />
            {k === "sub" ? "Sub-agent (answers back)" : "Handoff (takes over)"}
          </label>
        ))}
      </fieldset>
      {router ? null : <p className="text-[11px] text-zinc-500">A new link starts as a sub-agent; choose Handoff to let {to} take over instead.</p>}
      <p className="text-xs text-zinc-700" data-testid="link-meaning">
        {router ? `${to} is a child of the router ${from}: the router passes it the task and its answer is the run's answer.` : LINK_MEANING[kind]}
      </p>
      {kind === "handoff" ? <HandoffContextFields agent={sender} base={`agents[${index}]`} issues={issues} readOnly={readOnly} set={set} /> : null}
    </div>
  );
}
