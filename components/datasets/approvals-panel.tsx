"use client";
// "Add from approvals": decided tool-call approvals, filtered by tool or graph.
// An approved call (with the approver's edits) becomes an expected call; a
// rejection a negative example carrying the approver's reason. A call decided
// in edited history (a fork with an edit, a run that played an edited tape
// entry) is left out, and the answer says which and why.
import { useState, type FormEvent } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { listDecidedApprovalsAction } from "@/lib/actions/dataset-reads";
import { addApprovalsToDatasetAction } from "@/lib/actions/add-approvals-to-dataset";
import type { DecidedApproval } from "@/lib/datasets/schemas";

export function ApprovalsPanel({ datasetId }: { datasetId: string }) {
  const router = useRouter();
  const [tool, setTool] = useState("");
  const [graphName, setGraphName] = useState("");
  const [page, setPage] = useState(1);
  const [list, setList] = useState<{ approvals: DecidedApproval[]; hasMore: boolean } | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [message, setMessage] = useState<{ tone: "error" | "done"; text: string } | null>(null);

  async function load(nextPage: number, event?: FormEvent) {
    event?.preventDefault();
    const result = await listDecidedApprovalsAction({ page: nextPage, ...(tool.trim() ? { tool: tool.trim() } : {}), ...(graphName.trim() ? { graphName: graphName.trim() } : {}) });
    if (!result.ok) return setMessage({ tone: "error", text: result.error.message });
    setPage(nextPage);
    setList(result.data);
  }

  async function add() {
    const result = await addApprovalsToDatasetAction({ datasetId, approvalIds: [...chosen] });
    if (!result.ok) return setMessage({ tone: "error", text: result.error.message });
    const { added, version, leftOut } = result.data;
    // A call decided in edited history is not recorded behaviour: say which were left out and why.
    const left = leftOut.map((l) => ` Left out approval ${l.approvalId}: ${l.reason}.`).join("");
    setMessage({ tone: "done", text: `Added ${added} item${added === 1 ? "" : "s"} as version ${version}.${left}` });
    setChosen(new Set());
    router.refresh();
  }

  const toggle = (id: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  return (
    <div className="space-y-3 rounded-lg border border-zinc-200 bg-white p-4 text-sm" data-testid="approvals-panel">
      <h2 className="font-semibold text-zinc-900">Add from approvals</h2>
      <p className="text-xs text-zinc-600">Approved calls (with any edited arguments) become expected calls; rejections become negative examples with the reason.</p>
      <form onSubmit={(e) => void load(1, e)} className="flex flex-wrap items-end gap-2">
        <Input aria-label="Tool" placeholder="tool, e.g. ledger_transfer" value={tool} onChange={(e) => setTool(e.target.value)} className="w-48" />
        <Input aria-label="Agent graph" placeholder="agent graph" value={graphName} onChange={(e) => setGraphName(e.target.value)} className="w-40" />
        <Button type="submit" variant="secondary">
          {list ? "Filter" : "List decided approvals"}
        </Button>
      </form>
      {list ? (
        list.approvals.length === 0 ? (
          <p className="text-zinc-500">No decided approvals match.</p>
        ) : (
          <ul className="max-h-80 space-y-1 overflow-y-auto">
            {list.approvals.map((a) => (
              <li key={a.approvalId} className="flex items-start gap-2" data-testid="decided-approval">
                <input type="checkbox" aria-label={`Choose approval ${a.approvalId}`} checked={chosen.has(a.approvalId)} onChange={(e) => toggle(a.approvalId, e.target.checked)} className="mt-1" />
                <div className="min-w-0 text-xs">
                  <p>
                    <span className={a.approved ? "font-medium text-emerald-700" : "font-medium text-red-700"}>{a.approved ? (a.editedArguments ? "approved, edited" : "approved") : "rejected"}</span> <code>{a.tool}</code> <span className="font-mono text-zinc-600">{JSON.stringify(a.editedArguments ?? a.arguments)}</span>
                  </p>
                  <p className="truncate text-zinc-500" title={a.task}>
                    {a.graphName ?? "inline graph"} · {a.task}
                    {a.reason ? ` · “${a.reason}”` : ""} · {a.decidedBy ?? "—"}
                  </p>
                </div>
              </li>
            ))}
          </ul>
        )
      ) : null}
      {list && (page > 1 || list.hasMore) ? (
        <div className="flex gap-2">
          <Button variant="ghost" disabled={page <= 1} onClick={() => void load(page - 1)}>
            Previous
          </Button>
          <Button variant="ghost" disabled={!list.hasMore} onClick={() => void load(page + 1)}>
            Next
          </Button>
        </div>
      ) : null}
      {message ? (
        <p role={message.tone === "error" ? "alert" : "status"} className={message.tone === "error" ? "text-red-700" : "text-emerald-800"}>
          {message.text}
        </p>
      ) : null}
      <Button type="button" disabled={chosen.size === 0} onClick={() => void add()}>
        Add {chosen.size || ""} to the dataset
      </Button>
    </div>
  );
}
