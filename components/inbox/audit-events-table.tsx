import type { AuditEventRow } from "@/lib/inbox/schemas";
import { AuditPlan, auditedPlans } from "@/components/plan/audit-plan";

/** The details as JSON text; a plan approval's plans as a list and a structured diff instead of two JSON blobs. */
function Details({ details }: { details: Record<string, unknown> }) {
  const plans = auditedPlans(details.tool, details.arguments, details.editedArguments);
  if (!plans) return <>{Object.keys(details).length ? JSON.stringify(details) : ""}</>;
  const rest = Object.fromEntries(Object.entries(details).filter(([key]) => key !== "arguments" && key !== "editedArguments"));
  return (
    <div className="space-y-1 font-sans">
      <AuditPlan proposed={plans.proposed} edited={plans.edited} />
      <div className="font-mono">{JSON.stringify(rest)}</div>
    </div>
  );
}

/** Audit events of every kind: when, who, what, on which target, and the details as JSON text. */
export function AuditEventsTable({ rows }: { rows: AuditEventRow[] }) {
  return (
    <table className="w-full text-left text-sm" aria-label="All audit events">
      <thead className="text-xs text-zinc-500">
        <tr>
          <th className="py-2 pr-3 font-medium">#</th>
          <th className="pr-3 font-medium">at</th>
          <th className="pr-3 font-medium">action</th>
          <th className="pr-3 font-medium">by</th>
          <th className="pr-3 font-medium">target</th>
          <th className="font-medium">details</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={row.id} className="border-t border-zinc-100 align-top">
            <td className="py-2 pr-3 text-xs text-zinc-500 tabular-nums">{row.seq ?? "—"}</td>
            <td className="pr-3 whitespace-nowrap text-xs tabular-nums">{row.at.replace("T", " ").slice(0, 19)}</td>
            <td className="pr-3 font-mono text-xs">{row.action}</td>
            <td className="pr-3 text-xs">{row.actor ?? "system"}</td>
            <td className="pr-3 font-mono text-xs break-all">{row.target ?? ""}</td>
            <td className="font-mono text-xs break-all text-zinc-600">
              <Details details={row.details} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
