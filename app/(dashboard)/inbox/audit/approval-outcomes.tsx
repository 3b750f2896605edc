import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Select } from "@/components/ui/input";
import { AuditTable } from "@/components/inbox/audit-table";
import { getDb } from "@/lib/db/server/db";
import { AUDIT_OUTCOMES, auditFilterSchema } from "@/lib/inbox/schemas";
import { AUDIT_LIMIT, listAudit } from "@/lib/inbox/server/audit";

const TEXT_FILTERS = [
  { name: "tool", label: "Tool" },
  { name: "agent", label: "Agent" },
  { name: "person", label: "Decided by" },
] as const;

/** Every decision, endorsement and expiry, filtered by a plain GET form (shareable URLs, CSV with the same filter). */
export async function ApprovalOutcomes({ raw }: { raw: Record<string, string | undefined> }) {
  const parsed = auditFilterSchema.safeParse(raw);
  const rows = parsed.success ? await listAudit(getDb(), parsed.data) : [];
  const query = new URLSearchParams(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== "" && e[0] !== "format" && e[0] !== "view"));
  query.set("format", "csv");

  return (
    <>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Filters">
        {TEXT_FILTERS.map((f) => (
          <div key={f.name} className="space-y-1">
            <label htmlFor={`filter-${f.name}`} className="block text-xs text-zinc-600">
              {f.label}
            </label>
            <Input id={`filter-${f.name}`} name={f.name} defaultValue={raw[f.name] ?? ""} />
          </div>
        ))}
        <div className="space-y-1">
          <label htmlFor="filter-outcome" className="block text-xs text-zinc-600">
            Outcome
          </label>
          <Select id="filter-outcome" name="outcome" defaultValue={raw.outcome ?? ""}>
            <option value="">any</option>
            {AUDIT_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1">
          <label htmlFor="filter-from" className="block text-xs text-zinc-600">
            From
          </label>
          <Input id="filter-from" name="from" type="datetime-local" defaultValue={raw.from ?? ""} />
        </div>
        <div className="space-y-1">
          <label htmlFor="filter-to" className="block text-xs text-zinc-600">
            To
          </label>
          <Input id="filter-to" name="to" type="datetime-local" defaultValue={raw.to ?? ""} />
        </div>
        <Button type="submit">Filter</Button>
        <a href={`/api/approvals/audit?${query.toString()}`} className="text-sm underline" download>
          Export CSV
        </a>
      </form>
      {!parsed.success && <Alert tone="error">Some filters are invalid: {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}</Alert>}
      {parsed.success && rows.length === 0 && <EmptyState title="No decisions match">Decisions, endorsements and expiries appear here as they are recorded.</EmptyState>}
      {rows.length > 0 && (
        <>
          <p className="mb-2 text-xs text-zinc-500">
            {rows.length} rows{rows.length >= AUDIT_LIMIT ? ` (the newest ${AUDIT_LIMIT}; narrow the time range for older ones)` : ""}
          </p>
          <AuditTable rows={rows} />
        </>
      )}
    </>
  );
}
