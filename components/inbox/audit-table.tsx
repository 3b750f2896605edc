import Link from "@/components/ui/link";
import { Badge } from "@/components/ui/badge";
import { DateTime } from "@/components/ui/date-time";
import type { AuditRow } from "@/lib/inbox/schemas";
import { ArgsDiff } from "./args-diff";
import { AuditPlan, auditedPlans } from "@/components/plan/audit-plan";

const TONE = { approved: "success", rejected: "danger", expired: "warning", endorsed: "info", withdrawn: "neutral" } as const;

function duration(ms: number | null): string {
  if (ms === null) return "—";
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

/** A call's arguments as text and what the approver changed; a plan as its nodes and a structured diff of the edit. */
function ArgumentsCell({ row }: { row: AuditRow }) {
  const plans = auditedPlans(row.tool, row.arguments, row.editedArguments);
  if (plans) return <AuditPlan proposed={plans.proposed} edited={plans.edited} />;
  return (
    <>
      <pre className="overflow-auto text-xs whitespace-pre-wrap">{JSON.stringify(row.arguments)}</pre>
      {row.editedArguments && <ArgsDiff before={row.arguments} after={row.editedArguments} />}
    </>
  );
}

/** Decisions, endorsements and expiries; arguments and reasons shown as text. */
export function AuditTable({ rows }: { rows: AuditRow[] }) {
  return (
    <table className="w-full text-left text-sm" aria-label="Approval audit">
      <thead className="text-xs text-zinc-500">
        <tr>
          <th className="py-2 pr-3 font-medium">decided at</th>
          <th className="pr-3 font-medium">outcome</th>
          <th className="pr-3 font-medium">tool · agent</th>
          <th className="pr-3 font-medium">arguments</th>
          <th className="pr-3 font-medium">reason</th>
          <th className="pr-3 font-medium">decided by</th>
          <th className="font-medium">time to decide</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} className="border-t border-zinc-200 align-top" data-testid="audit-row" data-approval-id={row.approvalId}>
            <td className="py-2 pr-3 whitespace-nowrap">
              <DateTime value={row.decidedAt} />
            </td>
            <td className="pr-3">
              <Badge tone={TONE[row.outcome]}>{row.outcome}</Badge>
            </td>
            <td className="pr-3">
              <div className="font-mono text-xs">{row.tool}</div>
              <div className="text-xs text-zinc-600">{row.agent}</div>
              <Link href={`/runs/${encodeURIComponent(row.runId)}?approval=${row.approvalId}`} className="text-xs underline" title={row.approvalId}>
                run
              </Link>
            </td>
            <td className="max-w-md pr-3">
              <ArgumentsCell row={row} />
            </td>
            <td className="max-w-xs pr-3 whitespace-pre-wrap">{row.reason ?? "—"}</td>
            <td className="pr-3">
              {row.decidedBy ?? "—"}
              {row.role && <div className="text-xs text-zinc-500">{row.role}</div>}
            </td>
            <td>{duration(row.timeToDecideMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
