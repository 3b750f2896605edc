import type { Metadata } from "next";
import Link from "@/components/ui/link";
import { requirePageUser } from "@/lib/auth/server/session";
import { getDb } from "@/lib/db/server/db";
import { PageHeader } from "@/components/ui/page-header";
import { Alert } from "@/components/ui/alert";
import { cn } from "@/components/ui/cn";
import { verifyAuditChain } from "@/lib/audit/verify";
import { ApprovalOutcomes } from "./approval-outcomes";
import { AllEvents } from "./all-events";

export const metadata: Metadata = { title: "Audit" };

const VIEWS = [
  { view: "approvals", label: "Approval outcomes", href: "/inbox/audit" },
  { view: "events", label: "All events", href: "/inbox/audit?view=events" },
] as const;

/** The audit: whether the hash chain still verifies, then approval outcomes or every event. */
export default async function AuditPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await requirePageUser();
  const raw = Object.fromEntries(Object.entries(await searchParams).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
  const view = raw.view === "events" ? "events" : "approvals";
  const chain = await verifyAuditChain(getDb());

  return (
    <>
      <PageHeader title="Audit" description="Every change, recorded in a hash chain before it took effect." />
      <div className="mb-4" data-testid="audit-chain">
        {chain.verified ? (
          <Alert tone="success">
            Audit chain verified — {chain.rows.toLocaleString("en")} entries{chain.unchained ? ` (${chain.unchained} older entries predate the chain)` : ""}
          </Alert>
        ) : (
          <Alert tone="error">
            Audit chain BROKEN at entry {chain.broken?.seq ?? 0}: {chain.broken?.problem ?? "unknown problem"}
          </Alert>
        )}
      </div>
      <nav aria-label="Audit views" className="mb-4 flex items-center gap-4 border-b border-zinc-200 text-sm">
        {VIEWS.map((v) => (
          <Link key={v.view} href={v.href} aria-current={view === v.view ? "page" : undefined} className={cn("-mb-px border-b-2 pb-2", view === v.view ? "border-indigo-600 font-medium text-zinc-900" : "border-transparent text-zinc-500")}>
            {v.label}
          </Link>
        ))}
        <Link href="/inbox" className="ml-auto pb-2 underline">
          Back to the inbox
        </Link>
      </nav>
      {view === "events" ? <AllEvents raw={raw} reader={user} /> : <ApprovalOutcomes raw={raw} />}
    </>
  );
}
