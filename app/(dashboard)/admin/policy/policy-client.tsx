"use client";
// The workspace policy editor: floors, exemptions, and the gate each built-in
// tool gets under the policy being edited (the same function the workflow uses).
import { useState, useTransition, type FormEvent } from "react";
import { updateWorkspacePolicyAction } from "@/lib/actions/update-workspace-policy";
import { BUILTIN_TOOLS } from "@/lib/tools/catalog";
import { effectiveGate } from "@/lib/policy/gate";
import { workspacePolicySchema, type WorkspacePolicy, type WorkspacePolicyView } from "@/lib/policy/schemas";
import { Input, Label, Select } from "@/components/ui/input";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";

type Message = { tone: "error" | "success"; text: string };

function describeGate(policy: WorkspacePolicy, tool: string): string {
  const gate = effectiveGate(policy, [], tool);
  if (!gate) return "runs without approval (unless an agent's rule gates it)";
  const who = gate.requiredRole ?? "any approver";
  return `needs ${gate.requiredApprovals > 1 ? `${gate.requiredApprovals} × ` : ""}${who}; rejected after ${gate.expiresInSeconds} s`;
}

export function PolicyEditor({ initial }: { initial: WorkspacePolicyView }) {
  const [policy, setPolicy] = useState<WorkspacePolicy>(initial.policy);
  const [revision, setRevision] = useState(initial.revision);
  const [exemptText, setExemptText] = useState(initial.policy.exemptTools.join("\n"));
  const [message, setMessage] = useState<Message | null>(null);
  const [pending, startTransition] = useTransition();
  const floors = policy.floors;
  const setFloors = (patch: Partial<WorkspacePolicy["floors"]>) => setPolicy({ ...policy, floors: { ...floors, ...patch } });
  const exemptTools = exemptText.split(/[\n,]/).map((t) => t.trim()).filter(Boolean);
  const draft = workspacePolicySchema.safeParse({ ...policy, exemptTools });
  const preview = draft.success ? draft.data : policy;

  function save(event: FormEvent) {
    event.preventDefault();
    setMessage(null);
    startTransition(async () => {
      const result = await updateWorkspacePolicyAction({ ...policy, exemptTools });
      if (!result.ok) {
        setMessage({ tone: "error", text: result.error.message });
        return;
      }
      setPolicy(result.data.policy);
      setRevision(result.data.revision);
      setMessage({ tone: "success", text: `Saved as revision ${result.data.revision}. New runs use it; running ones keep theirs.` });
    });
  }

  return (
    <form onSubmit={save} className="space-y-6" aria-label="Workspace approval policy">
      {message ? <Alert tone={message.tone}>{message.text}</Alert> : null}
      <Card>
        <CardHeader title="Floors" description={`Every approval demands at least this, whatever an agent's rule says (revision ${revision}).`} />
        <CardBody className="grid grid-cols-2 gap-4">
          <div>
            <Label htmlFor="min-approvals">Approvals needed, at least</Label>
            <Input id="min-approvals" type="number" min={1} max={5} value={floors.minRequiredApprovals} onChange={(e) => setFloors({ minRequiredApprovals: Number(e.target.value) })} />
          </div>
          <div>
            <Label htmlFor="required-role">Role that decides, at least</Label>
            <Select
              id="required-role"
              value={floors.requiredRole ?? ""}
              onChange={(e) => {
                const { requiredRole: _omit, ...rest } = floors;
                setPolicy({ ...policy, floors: e.target.value === "approver" || e.target.value === "admin" ? { ...rest, requiredRole: e.target.value } : rest });
              }}
            >
              <option value="">any approver</option>
              <option value="approver">approver</option>
              <option value="admin">admin</option>
            </Select>
          </div>
          <div>
            <Label htmlFor="max-expiry">Longest wait before expiry (s)</Label>
            <Input id="max-expiry" type="number" min={60} value={floors.maxExpiresInSeconds} onChange={(e) => setFloors({ maxExpiresInSeconds: Number(e.target.value) })} />
          </div>
          <div className="space-y-2 pt-5 text-sm text-zinc-700">
            <label className="flex items-center gap-2">
              <input
                type="checkbox"
                checked={floors.allowedExpiryOutcomes.includes("approve")}
                onChange={(e) => setFloors({ allowedExpiryOutcomes: e.target.checked ? ["reject", "approve"] : ["reject"] })}
              />
              Rules may approve a call when its approval expires
            </label>
            <label className="flex items-center gap-2">
              <input type="checkbox" checked={floors.allowSelfApproval} onChange={(e) => setFloors({ allowSelfApproval: e.target.checked })} />
              Rules may let the run&apos;s starter or the version&apos;s author approve
            </label>
          </div>
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Exempt tools" description="Tool names or globs (one per line) that run without approval by default, e.g. kb__* for a read-only MCP server. An agent's own rule can still gate them." />
        <CardBody>
          <Label htmlFor="exempt-tools">Exempt tools</Label>
          <textarea id="exempt-tools" className="block h-28 w-full rounded-md px-2 py-1 font-mono text-sm ring-1 ring-inset ring-zinc-300" value={exemptText} onChange={(e) => setExemptText(e.target.value)} />
          {draft.success ? null : <p className="mt-1 text-xs text-red-700">{draft.error.issues[0]?.message}</p>}
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Others' runs" description="A run is its starter's: who else may cancel it or send it follow-ups. Admins always may." />
        <CardBody>
          <Label htmlFor="others-runs-role">Who may act on runs they did not start</Label>
          <Select id="others-runs-role" value={policy.othersRunsRole} onChange={(e) => setPolicy({ ...policy, othersRunsRole: e.target.value as WorkspacePolicy["othersRunsRole"] })}>
            <option value="admin">admins only</option>
            <option value="approver">approvers and admins</option>
            <option value="builder">builders, approvers and admins</option>
          </Select>
        </CardBody>
      </Card>
      <Card>
        <CardHeader title="Effective gate of the built-in tools" description="Under the policy above, for an agent without approval rules. MCP tools are gated like ledger_transfer unless exempted." />
        <CardBody>
          <ul className="space-y-1 text-sm" data-testid="policy-gate-preview">
            {BUILTIN_TOOLS.map((tool) => (
              <li key={tool.id}>
                <span className="font-mono">{tool.id}</span> — {describeGate(preview, tool.id)}
              </li>
            ))}
          </ul>
        </CardBody>
      </Card>
      <Button type="submit" disabled={pending || !draft.success}>
        Save policy
      </Button>
    </form>
  );
}
