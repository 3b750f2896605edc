// A write workload for contention tests: many concurrent ledger transfers
// (the real ledger_transfer tool, through writeTransaction), single-statement
// inserts and hot-row increments, read-then-write transactions on one row, and
// agent saves racing for version numbers.
// Each process of a test runs it at the same time against one database; the
// totals it must leave behind are computed by expectedTotals.
import type { Db } from "../../lib/db/prisma";
import { contentionStats, type ContentionStats } from "../../lib/db/contention";
import { writeTransaction } from "../../lib/db/transactions";
import { saveAgentVersion } from "../../lib/agents/repository";
import { ledgerTransfer } from "../../worker/tools/demo-bank";
import type { ToolContext } from "../../worker/tools/types";

export interface WorkloadSpec {
  /** Distinct transfers (own idempotency keys) per process. */
  transfers: number;
  /** Transfers whose keys every process executes: each must happen once in total. */
  sharedTransfers: number;
  /** Audit-event inserts and counter increments (one statement each) per process. */
  singleWrites: number;
  /** Concurrent saves of one agent graph per process: versions must stay dense and unique. */
  agentSaves: number;
  /** Read-then-write increments of one row (writeTransaction's default isolation) per process: none may be lost. */
  readModifyWrites: number;
}

export interface WorkloadReport {
  label: string;
  operations: number;
  errors: string[];
  durationMs: number;
  stats: ContentionStats;
}

export const WORKLOAD_ACCOUNTS = ["acct-a", "acct-b", "acct-c"] as const;
export const COUNTER_ACCOUNT = "acct-counter";
export const READ_MODIFY_WRITE_ACCOUNT = "acct-rmw";
export const CONTENDED_AGENT = "contended-agent";
export const INITIAL_BALANCE_CENTS = 10_000_000;

/** Transfer i of a process moves (i % 7 + 1) dollars one step around the ring a → b → c → a. */
function transferOf(i: number) {
  const from = WORKLOAD_ACCOUNTS[i % 3] ?? "acct-a";
  const to = WORKLOAD_ACCOUNTS[(i + 1) % 3] ?? "acct-b";
  return { from_account: from, to_account: to, amount: (i % 7) + 1 };
}

/** Shared transfer j always moves $1 from a to b. */
const sharedTransfer = { from_account: "acct-a", to_account: "acct-b", amount: 1 };

function toolContext(db: Db, runId: string, idempotencyKey: string): ToolContext {
  return {
    db,
    runId,
    rootRunId: runId,
    agentName: "contention",
    iteration: 1,
    callId: idempotencyKey,
    idempotencyKey,
    runContext: {},
    signal: new AbortController().signal,
    heartbeat: () => undefined,
    httpAllowlist: [],
    // The ledger makes no requests: any attempt fails loudly.
    egressFetch: () => Promise.reject(new Error("no network in the contention workload")),
  };
}

const agentGraph = { entryAgent: "main", agents: [{ name: "main", systemPrompt: "You are a contention test.", model: "demo/assistant" }] };

/** Creates the accounts the workload moves money between (once, before any process starts). */
export async function prepareWorkload(db: Db): Promise<void> {
  await db.ledgerAccount.createMany({
    data: [
      ...WORKLOAD_ACCOUNTS.map((id) => ({ id, name: id, balanceCents: INITIAL_BALANCE_CENTS })),
      { id: COUNTER_ACCOUNT, name: "counter", balanceCents: 0 },
      { id: READ_MODIFY_WRITE_ACCOUNT, name: "read-modify-write", balanceCents: 0 },
    ],
  });
}

/** Runs the whole workload concurrently; failures are collected, never thrown. */
export async function runWriteWorkload(db: Db, label: string, spec: WorkloadSpec): Promise<WorkloadReport> {
  const before = contentionStats();
  const started = performance.now();
  const operations: Promise<unknown>[] = [];
  for (let i = 0; i < spec.transfers; i++) {
    const key = `${label}:transfer:${i}`;
    operations.push(ledgerTransfer.execute(transferOf(i), toolContext(db, `run-${label}`, key)));
  }
  for (let j = 0; j < spec.sharedTransfers; j++) {
    const key = `shared:transfer:${j}`;
    operations.push(ledgerTransfer.execute(sharedTransfer, toolContext(db, "run-shared", key)));
  }
  for (let i = 0; i < spec.singleWrites; i++) {
    operations.push(db.auditEvent.create({ data: { action: "contention.write", target: label, details: JSON.stringify({ i }) } }));
    operations.push(db.ledgerAccount.update({ where: { id: COUNTER_ACCOUNT }, data: { balanceCents: { increment: 1 } } }));
  }
  for (let i = 0; i < spec.readModifyWrites; i++) {
    // The classic lost update, unless the transaction is serializable (SQLite: one writer; PostgreSQL: a failure, re-run).
    operations.push(
      writeTransaction(db, async (tx) => {
        const row = await tx.ledgerAccount.findUniqueOrThrow({ where: { id: READ_MODIFY_WRITE_ACCOUNT } });
        await tx.ledgerAccount.update({ where: { id: row.id }, data: { balanceCents: row.balanceCents + 1 } });
      }),
    );
  }
  for (let i = 0; i < spec.agentSaves; i++) {
    operations.push(saveAgentVersion(db, CONTENDED_AGENT, agentGraph, { note: `${label}:${i}` }));
  }
  const settled = await Promise.allSettled(operations);
  const errors = settled.flatMap((s) => (s.status === "rejected" ? [describeError(s.reason)] : []));
  return { label, operations: operations.length, errors, durationMs: Math.round(performance.now() - started), stats: statsSince(before) };
}

/** This process's contention counters since `before` (they are process-wide). */
function statsSince(before: ContentionStats): ContentionStats {
  const now = contentionStats();
  const retries = { ...now.transactionRetries };
  for (const reason of Object.keys(retries) as (keyof typeof retries)[]) retries[reason] -= before.transactionRetries[reason];
  return {
    statementRetries: now.statementRetries - before.statementRetries,
    transactionRetries: retries,
    transactionsGivenUp: now.transactionsGivenUp - before.transactionsGivenUp,
  };
}

function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const lastLine = error.message.trim().split("\n").at(-1) ?? "";
  return `${error.name}${typeof code === "string" ? ` ${code}` : ""}: ${lastLine}`;
}

export interface WorkloadTotals {
  balances: Record<string, number>;
  ledgerEntries: number;
  toolExecutions: number;
  auditEvents: number;
  counter: number;
  readModifyWrites: number;
  agentVersions: number[];
}

/** What the database must hold after `processes` processes each ran the workload once, every operation succeeding. */
export function expectedTotals(processes: number, spec: WorkloadSpec): WorkloadTotals {
  const balances: Record<string, number> = Object.fromEntries(WORKLOAD_ACCOUNTS.map((id) => [id, INITIAL_BALANCE_CENTS]));
  const move = (t: { from_account: string; to_account: string; amount: number }, times: number) => {
    balances[t.from_account] = (balances[t.from_account] ?? 0) - t.amount * 100 * times;
    balances[t.to_account] = (balances[t.to_account] ?? 0) + t.amount * 100 * times;
  };
  for (let i = 0; i < spec.transfers; i++) move(transferOf(i), processes);
  move(sharedTransfer, spec.sharedTransfers);
  const transfers = processes * spec.transfers + spec.sharedTransfers;
  return {
    balances,
    ledgerEntries: transfers,
    toolExecutions: transfers,
    auditEvents: processes * spec.singleWrites,
    counter: processes * spec.singleWrites,
    readModifyWrites: processes * spec.readModifyWrites,
    agentVersions: Array.from({ length: processes * spec.agentSaves }, (_, i) => i + 1),
  };
}

/** What the database holds now, in the shape of expectedTotals. */
export async function actualTotals(db: Db): Promise<WorkloadTotals> {
  const accounts = await db.ledgerAccount.findMany({ where: { id: { in: [...WORKLOAD_ACCOUNTS] } } });
  const counter = await db.ledgerAccount.findUniqueOrThrow({ where: { id: COUNTER_ACCOUNT } });
  const readModifyWrites = await db.ledgerAccount.findUniqueOrThrow({ where: { id: READ_MODIFY_WRITE_ACCOUNT } });
  const versions = await db.agentVersion.findMany({ where: { agent: { name: CONTENDED_AGENT } }, orderBy: { version: "asc" }, select: { version: true } });
  return {
    balances: Object.fromEntries(accounts.map((a) => [a.id, a.balanceCents])),
    ledgerEntries: await db.ledgerEntry.count(),
    toolExecutions: await db.toolExecution.count(),
    auditEvents: await db.auditEvent.count({ where: { action: "contention.write" } }),
    counter: counter.balanceCents,
    readModifyWrites: readModifyWrites.balanceCents,
    agentVersions: versions.map((v) => v.version),
  };
}
