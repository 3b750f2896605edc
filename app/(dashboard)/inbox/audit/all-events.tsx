import Link from "@/components/ui/link";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/alert";
import { EmptyState } from "@/components/ui/empty-state";
import { Input, Select } from "@/components/ui/input";
import { AuditEventsTable } from "@/components/inbox/audit-events-table";
import { getDb } from "@/lib/db/server/db";
import { ADMIN_ONLY_AUDIT_ACTIONS, AUDIT_ACTIONS } from "@/lib/audit/actions";
import { can, type Role } from "@/lib/access/roles";
import { auditEventFilterSchema } from "@/lib/inbox/schemas";
import { listAuditEvents } from "@/lib/inbox/server/audit";

/** Every audit event, whatever its action (runs, agents, accounts, the registry…), filtered by a GET form and paged; sign-in failures for admins only, saved-view and API-key rows for their owner and admins. */
export async function AllEvents({ raw, reader }: { raw: Record<string, string | undefined>; reader: { id: string; role: Role } }) {
  const parsed = auditEventFilterSchema.safeParse(raw);
  const page = parsed.success ? await listAuditEvents(getDb(), parsed.data, reader) : null;
  const actions = can(reader.role, "users:manage") ? AUDIT_ACTIONS : AUDIT_ACTIONS.filter((a) => !ADMIN_ONLY_AUDIT_ACTIONS.includes(a));
  const pageHref = (n: number) => {
    const query = new URLSearchParams(Object.entries(raw).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
    query.set("view", "events");
    query.set("page", String(n));
    return `/inbox/audit?${query.toString()}`;
  };
  const pages = page ? Math.max(1, Math.ceil(page.total / page.pageSize)) : 1;

  return (
    <>
      <form method="get" className="mb-4 flex flex-wrap items-end gap-3" aria-label="Event filters">
        <input type="hidden" name="view" value="events" />
        <div className="space-y-1">
          <label htmlFor="events-action" className="block text-xs text-zinc-600">
            Action
          </label>
          <Select id="events-action" name="action" defaultValue={raw.action ?? ""}>
            <option value="">any</option>
            {actions.map((a) => (
              <option key={a} value={a}>
                {a}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1">
          <label htmlFor="events-person" className="block text-xs text-zinc-600">
            Person
          </label>
          <Input id="events-person" name="person" defaultValue={raw.person ?? ""} />
        </div>
        <div className="space-y-1">
          <label htmlFor="events-from" className="block text-xs text-zinc-600">
            From
          </label>
          <Input id="events-from" name="from" type="datetime-local" defaultValue={raw.from ?? ""} />
        </div>
        <div className="space-y-1">
          <label htmlFor="events-to" className="block text-xs text-zinc-600">
            To
          </label>
          <Input id="events-to" name="to" type="datetime-local" defaultValue={raw.to ?? ""} />
        </div>
        <Button type="submit">Filter</Button>
      </form>
      {!parsed.success && <Alert tone="error">Some filters are invalid: {parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}</Alert>}
      {page && page.total === 0 && <EmptyState title="No events match">Every change anyone makes, through the pages or the API, is recorded here.</EmptyState>}
      {page && page.total > 0 && (
        <>
          <p className="mb-2 text-xs text-zinc-500">
            {page.total} events · page {page.page} of {pages}
          </p>
          <AuditEventsTable rows={page.rows} />
          <nav aria-label="Pages" className="mt-3 flex gap-3 text-sm">
            {page.page > 1 && (
              <Link href={pageHref(page.page - 1)} className="underline">
                Newer
              </Link>
            )}
            {page.page < pages && (
              <Link href={pageHref(page.page + 1)} className="underline">
                Older
              </Link>
            )}
          </nav>
        </>
      )}
    </>
  );
}
