import "server-only";
// The approval audit: every decision, endorsement and expiry, read from the
// audit events the workflow writes (with the approval record) before it applies
// an outcome — so what is listed here is exactly what took effect.
import type { Db } from "../../db/prisma";
import { can, type Role } from "../../access/roles";
import { ADMIN_ONLY_AUDIT_ACTIONS, API_KEY_AUDIT_ACTIONS, OWNER_ONLY_AUDIT_ACTIONS } from "../../audit/actions";
import { planEditLine } from "../../plans/audited";
import { AUDIT_OUTCOMES, type AuditEventFilter, type AuditEventPage, type AuditFilter, type AuditOutcome, type AuditRow } from "../schemas";

interface AuditDetails {
  tool?: string;
  agent?: string;
  decidedBy?: string | null;
  role?: string | null;
  reason?: string | null;
  arguments?: Record<string, unknown>;
  editedArguments?: Record<string, unknown> | null;
  requestedAt?: string;
}

/** How many rows the audit reads at most per request (newest first). */
export const AUDIT_LIMIT = 2_000;

/** Turns one audit event into a row; null for events that are not approval outcomes. */
export function toAuditRow(event: { id: string; action: string; target: string | null; details: string; createdAt: Date }): AuditRow | null {
  const outcome = event.action.replace(/^approval\./, "") as AuditOutcome;
  if (!AUDIT_OUTCOMES.includes(outcome)) return null;
  const [runId = "", approvalId = ""] = (event.target ?? "").split("/");
  const details = JSON.parse(event.details) as AuditDetails;
  const requestedAt = details.requestedAt ?? null;
  const requestedMs = requestedAt ? Date.parse(requestedAt) : NaN;
  return {
    id: event.id,
    approvalId,
    runId,
    tool: details.tool ?? "",
    agent: details.agent ?? "",
    outcome,
    arguments: details.arguments ?? {},
    editedArguments: details.editedArguments ?? null,
    reason: details.reason ?? null,
    decidedBy: details.decidedBy ?? null,
    role: details.role ?? null,
    requestedAt,
    decidedAt: event.createdAt.toISOString(),
    timeToDecideMs: Number.isNaN(requestedMs) ? null : Math.max(0, event.createdAt.getTime() - requestedMs),
  };
}

function matches(row: AuditRow, filter: Partial<AuditFilter>): boolean {
  const has = (value: string | null, wanted: string | undefined) => !wanted || (value ?? "").toLowerCase().includes(wanted.toLowerCase());
  return has(row.tool, filter.tool) && has(row.agent, filter.agent) && has(row.decidedBy, filter.person);
}

/** Audit rows matching the filter, newest first. Outcome and time narrow in the database; text filters after. */
export async function listAudit(db: Db, filter: Partial<AuditFilter>): Promise<AuditRow[]> {
  const actions = filter.outcome ? [`approval.${filter.outcome}`] : AUDIT_OUTCOMES.map((o) => `approval.${o}`);
  const events = await db.auditEvent.findMany({
    where: {
      action: { in: actions },
      ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } } : {}),
    },
    orderBy: { createdAt: "desc" },
    take: AUDIT_LIMIT,
    select: { id: true, action: true, target: true, details: true, createdAt: true },
  });
  return events.map(toAuditRow).filter((row): row is AuditRow => row !== null && matches(row, filter));
}

function parseDetails(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Who reads the audit: their id decides which owner-only rows are theirs, their role the rest. */
interface AuditReader {
  id: string;
  role: Role;
}

/**
 * The rows a reader may see. Admins see every row. Others never the admin-only
 * ones (sign-in failures: emails tried, addresses), and of the owner-only ones
 * (saved views, API keys) only those about their own: written by them, or about
 * a key they own (an admin's revocation of it, an operator's creation of it).
 * Asking for a hidden action by name finds nothing, as if there were none.
 */
async function visibleTo(db: Db, reader: AuditReader, wanted: string | undefined) {
  if (can(reader.role, "users:manage")) return wanted ? [{ action: wanted }] : [];
  const hidden: string[] = [...ADMIN_ONLY_AUDIT_ACTIONS];
  const ownKeys = await db.apiKey.findMany({ where: { ownerId: reader.id }, select: { id: true } });
  return [
    wanted ? { action: hidden.includes(wanted) ? { in: [] } : { equals: wanted } } : { action: { notIn: hidden } },
    {
      OR: [
        { action: { notIn: [...OWNER_ONLY_AUDIT_ACTIONS] } },
        { actorId: reader.id },
        { action: { in: [...API_KEY_AUDIT_ACTIONS] }, target: { in: ownKeys.map((k) => k.id) } },
      ],
    },
  ];
}

/** What a reader may see of a row's details: a sign-in's address is for admins only. */
function detailsFor(reader: { role: Role }, action: string, details: Record<string, unknown>): Record<string, unknown> {
  if (can(reader.role, "users:manage") || !action.startsWith("auth.")) return details;
  const { ip: _ip, ...rest } = details;
  return rest;
}

/**
 * Every kind of audit event (the "All events" view), newest first, one page at
 * a time, as this reader may see it (sign-in failures are for admins only; rows
 * of saved views and API keys for their owner and admins).
 */
export async function listAuditEvents(db: Db, filter: AuditEventFilter, reader: AuditReader): Promise<AuditEventPage> {
  const person = filter.person?.toLowerCase();
  const where = {
    AND: await visibleTo(db, reader, filter.action),
    ...(person ? { actor: { OR: [{ email: { contains: person } }, { name: { contains: filter.person } }] } } : {}),
    ...(filter.from || filter.to ? { createdAt: { ...(filter.from ? { gte: filter.from } : {}), ...(filter.to ? { lte: filter.to } : {}) } } : {}),
  };
  const [total, events] = await Promise.all([
    db.auditEvent.count({ where }),
    db.auditEvent.findMany({
      where,
      // The chain's order is the order of writes; rows from before the chain (no seq) sort by time after them.
      orderBy: [{ seq: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
      skip: (filter.page - 1) * filter.pageSize,
      take: filter.pageSize,
      select: { id: true, seq: true, action: true, target: true, details: true, createdAt: true, actor: { select: { email: true, name: true } } },
    }),
  ]);
  return {
    rows: events.map((e) => ({
      id: e.id,
      seq: e.seq,
      action: e.action,
      actor: e.actor?.email ?? null,
      target: e.target,
      details: detailsFor(reader, e.action, parseDetails(e.details)),
      at: e.createdAt.toISOString(),
    })),
    total,
    page: filter.page,
    pageSize: filter.pageSize,
  };
}

const CSV_COLUMNS: [string, (row: AuditRow) => string][] = [
  ["approval_id", (r) => r.approvalId],
  ["run_id", (r) => r.runId],
  ["agent", (r) => r.agent],
  ["tool", (r) => r.tool],
  ["outcome", (r) => r.outcome],
  ["arguments_requested", (r) => JSON.stringify(r.arguments)],
  ["arguments_approved", (r) => (r.outcome === "approved" ? JSON.stringify(r.editedArguments ?? r.arguments) : "")],
  // A plan edit as its structured diff, named change by change (the two plans stay in the columns before).
  ["plan_edit", (r) => (r.outcome === "approved" ? planEditLine(r.tool, r.arguments, r.editedArguments) : "")],
  ["reason", (r) => r.reason ?? ""],
  ["decided_by", (r) => r.decidedBy ?? ""],
  ["role", (r) => r.role ?? ""],
  ["requested_at", (r) => r.requestedAt ?? ""],
  ["decided_at", (r) => r.decidedAt],
  ["time_to_decide_seconds", (r) => (r.timeToDecideMs === null ? "" : (r.timeToDecideMs / 1000).toFixed(1))],
];

/**
 * One CSV field (RFC 4180 quoting). Cells starting with = + - @ are prefixed with
 * a quote so a spreadsheet never runs model-written text as a formula.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function auditCsv(rows: AuditRow[]): string {
  const lines = [CSV_COLUMNS.map(([name]) => name).join(",")];
  for (const row of rows) lines.push(CSV_COLUMNS.map(([, get]) => csvField(get(row))).join(","));
  return `${lines.join("\r\n")}\r\n`;
}
