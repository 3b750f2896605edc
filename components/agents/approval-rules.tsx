"use client";
// Approval rules of one agent, each with a live preview of the tools its
// pattern matches, the role that must decide and when the request expires —
// computed by the same effectiveGate as the workflow, so the preview shows the
// workspace policy's floors and deny-by-default (graph rules can only add).
import { useEffect, useState } from "react";
import { approvalRuleSchema, type AgentConfig, type ApprovalRule } from "@/lib/agents/schemas";
import { ROLES } from "@/lib/access/roles";
import { matchesGlob } from "@/lib/agents/glob";
import type { GraphIssue } from "@/lib/agents/validate";
import { effectiveGate, type GateRequirement } from "@/lib/policy/gate";
import { DEFAULT_WORKSPACE_POLICY, workspacePolicySchema, type WorkspacePolicy } from "@/lib/policy/schemas";
import { getJson } from "@/lib/http/client";

// One read of the workspace policy per page load, shared by every agent's rules.
let policyRequest: Promise<WorkspacePolicy | null> | null = null;
function loadWorkspacePolicy(): Promise<WorkspacePolicy | null> {
  policyRequest ??= getJson<{ policy: unknown }>("/api/policy", { what: "the workspace policy" })
    .then((body) => workspacePolicySchema.parse(body.policy))
    .catch(() => null);
  return policyRequest;
}

/** The workspace policy in force, or the built-in default until it has loaded (or when it cannot be read). */
function useWorkspacePolicy(given: WorkspacePolicy | undefined): WorkspacePolicy {
  const [loaded, setLoaded] = useState<WorkspacePolicy | null>(null);
  useEffect(() => {
    if (given) return;
    let live = true;
    void loadWorkspacePolicy().then((policy) => {
      if (live && policy) setLoaded(policy);
    });
    return () => {
      live = false;
    };
  }, [given]);
  return given ?? loaded ?? DEFAULT_WORKSPACE_POLICY;
}
import { Field, INPUT, NumberInput } from "./fields";
import { ApprovalReminderFields } from "./approval-reminder-fields";

function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "—";
  if (seconds % 86400 === 0) return `${seconds / 86400} day${seconds === 86400 ? "" : "s"}`;
  if (seconds % 3600 === 0) return `${seconds / 3600} h`;
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}

/** The tools a pattern matches among the names the agent can call. */
export function matchedTools(pattern: string, toolNames: readonly string[]): string[] {
  try {
    return toolNames.filter((name) => matchesGlob(pattern, name));
  } catch {
    return [];
  }
}

function describeGate(gate: GateRequirement): string {
  return `decided by ${gate.requiredApprovals > 1 ? `${gate.requiredApprovals} × ` : ""}${gate.requiredRole ?? "any approver"} · expires after ${formatDuration(gate.expiresInSeconds)} (${gate.onExpiry === "approve" ? "then approved" : "then rejected"})${gate.allowSelfApproval ? " · self-approval allowed" : ""}`;
}

export function ApprovalRules(props: {
  agent: AgentConfig;
  index: number;
  toolNames: readonly string[];
  issues: { errors: readonly GraphIssue[]; warnings: readonly GraphIssue[] };
  readOnly: boolean;
  onChange: (rules: ApprovalRule[], key: string) => void;
  /** The workspace policy in force (default: read from /api/policy). */
  policy?: WorkspacePolicy;
}) {
  const { agent, index, toolNames, issues, readOnly, onChange } = props;
  const policy = useWorkspacePolicy(props.policy);
  const gatedByDefault = toolNames.filter((name) => effectiveGate(policy, [], name)?.reason === "default");
  const set = (r: number, rule: ApprovalRule, field: string) => onChange(agent.approvalRules.map((x, k) => (k === r ? rule : x)), `rule:${r}:${field}`);
  return (
    <div className="space-y-3">
      {gatedByDefault.length ? (
        <p className="rounded bg-amber-50 p-2 text-xs text-amber-900" data-testid="gated-by-policy">
          Always pause for approval (workspace policy): <span className="font-mono">{gatedByDefault.join(", ")}</span>
        </p>
      ) : null}
      {agent.approvalRules.map((rule, r) => {
        const base = `agents[${index}].approvalRules[${r}]`;
        const matched = matchedTools(rule.pattern, toolNames);
        return (
          <fieldset key={r} className="space-y-2 rounded-md border border-zinc-200 p-2" aria-label={`Approval rule ${r + 1}`}>
            <Field id={`rule-${r}-pattern`} label="Tool pattern" path={`${base}.pattern`} issues={issues}>
              <input id={`rule-${r}-pattern`} className={INPUT} value={rule.pattern} disabled={readOnly} onChange={(e) => set(r, { ...rule, pattern: e.target.value }, "pattern")} />
            </Field>
            <div className="grid grid-cols-2 gap-2">
              <Field id={`rule-${r}-role`} label="Required role" path={`${base}.requiredRole`} issues={issues}>
                <select
                  id={`rule-${r}-role`}
                  className={INPUT}
                  value={rule.requiredRole ?? ""}
                  disabled={readOnly}
                  onChange={(e) => {
                    const { requiredRole: _omit, ...rest } = rule;
                    set(r, e.target.value ? { ...rest, requiredRole: e.target.value as ApprovalRule["requiredRole"] } : rest, "role");
                  }}
                >
                  <option value="">any approver</option>
                  {ROLES.map((role) => (
                    <option key={role} value={role}>
                      {role}
                    </option>
                  ))}
                </select>
              </Field>
              <Field id={`rule-${r}-expiry`} label="Expires after (s)" path={`${base}.expiresInSeconds`} issues={issues}>
                <NumberInput id={`rule-${r}-expiry`} value={rule.expiresInSeconds} disabled={readOnly} onChange={(v) => set(r, { ...rule, expiresInSeconds: v }, "expiry")} />
              </Field>
            </div>
            <div className="grid grid-cols-2 gap-2">
              <Field id={`rule-${r}-approvals`} label="Approvals needed" path={`${base}.requiredApprovals`} issues={issues}>
                <NumberInput id={`rule-${r}-approvals`} value={rule.requiredApprovals} disabled={readOnly} onChange={(v) => set(r, { ...rule, requiredApprovals: v }, "approvals")} />
              </Field>
              <Field id={`rule-${r}-on-expiry`} label="When it expires" path={`${base}.onExpiry`} issues={issues}>
                <select id={`rule-${r}-on-expiry`} className={INPUT} value={rule.onExpiry} disabled={readOnly} onChange={(e) => set(r, { ...rule, onExpiry: e.target.value === "approve" ? "approve" : "reject" }, "onExpiry")}>
                  <option value="reject">reject the call</option>
                  <option value="approve">approve the call</option>
                </select>
              </Field>
            </div>
            <ApprovalReminderFields rule={rule} idPrefix={`rule-${r}`} subject={`rule ${r + 1}`} base={base} issues={issues} readOnly={readOnly} set={(next, field) => set(r, next, field)} />
            <label className="flex items-center gap-2 text-xs text-zinc-700">
              <input type="checkbox" checked={rule.allowSelfApproval} disabled={readOnly} onChange={(e) => set(r, { ...rule, allowSelfApproval: e.target.checked }, "self")} />
              Who started the run or wrote this version may approve (only if the workspace policy allows it)
            </label>
            <div className="rounded bg-zinc-50 p-2 text-xs text-zinc-700" data-testid={`rule-preview-${r}`} aria-live="polite">
              {matched.length ? (
                <>
                  Pauses for approval: <span className="font-mono">{matched.join(", ")}</span>
                </>
              ) : (
                "Matches none of this agent's tools yet"
              )}
              {matched.map((name) => {
                const gate = effectiveGate(policy, agent.approvalRules, name);
                return gate ? (
                  <span key={name} className="block">
                    <span className="font-mono">{name}</span>: {describeGate(gate)}
                  </span>
                ) : null;
              })}
            </div>
            {readOnly ? null : (
              <button type="button" className="text-xs text-red-700 hover:underline" onClick={() => onChange(agent.approvalRules.filter((_, k) => k !== r), `rules:remove`)}>
                Remove rule
              </button>
            )}
          </fieldset>
        );
      })}
      {readOnly ? null : (
        <button type="button" className="text-xs font-medium text-indigo-700 hover:underline" onClick={() => onChange([...agent.approvalRules, approvalRuleSchema.parse({ pattern: agent.tools[0] ?? "*" })], "rules:add")}>
          Add approval rule
        </button>
      )}
    </div>
  );
}
