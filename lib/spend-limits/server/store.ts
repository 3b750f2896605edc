// Spend limits, one function per operation, called by the routes and server
// actions alike through operations.ts. Who may change which limit: admins
// (policy:manage) every scope; builders (agents:edit, who may build every saved
// graph) the limits of graphs; everyone signed in reads them with their spend.
// A change writes the row and its audit row in one transaction.
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { appendAuditInTransaction } from "../../audit/write";
import { can, type Role } from "../../access/roles";
import { AppError, ConflictError, ForbiddenError, ValidationError } from "../../errors";
import { limitReached, windowOf, type PriceAt } from "../rules";
import { SPEND_LIMITS, setSpendLimitInput, type SetSpendLimitInput, type SetSpendLimitRequest, type SpendLimitView, type SpendPeriod, type SpendScope } from "../schemas";
import { currentPricing, scopeLabel, spendOf } from "./spend";

interface Actor {
  id: string;
  role: Role;
}

type LimitRow = NonNullable<Awaited<ReturnType<Db["spendLimit"]["findUnique"]>>>;

export class SpendLimitNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no spend limit ${id}`);
    this.name = "SpendLimitNotFound";
  }
}

const limitId = () => `spl_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;

/** 403 unless `actor` may change limits of `scope`: admins any, builders graphs only. */
export function requireMayChange(actor: Actor, scope: SpendScope): void {
  if (can(actor.role, "policy:manage")) return;
  if (scope === "graph" && can(actor.role, "agents:edit")) return;
  throw new ForbiddenError(scope === "graph" ? "Only builders and admins change a graph's spend limits" : "Only admins change workspace, user and API key spend limits");
}

/** 422 naming `scopeId` when the limit would name nothing. */
async function requireTarget(db: Db, input: SetSpendLimitInput): Promise<void> {
  if (input.scope === "workspace") return;
  const found =
    input.scope === "graph"
      ? await db.agent.findUnique({ where: { name: input.scopeId }, select: { id: true } })
      : input.scope === "user"
        ? await db.user.findUnique({ where: { id: input.scopeId }, select: { id: true } })
        : await db.apiKey.findUnique({ where: { id: input.scopeId }, select: { id: true } });
  if (found) return;
  const what = input.scope === "graph" ? `there is no saved agent graph named "${input.scopeId}"` : input.scope === "user" ? `there is no user with id ${input.scopeId}` : `there is no API key with id ${input.scopeId}`;
  throw new ValidationError([{ path: "scopeId", message: what }]);
}

async function view(db: Db, row: LimitRow, now: Date, price: PriceAt): Promise<SpendLimitView> {
  const period = row.period as SpendPeriod;
  const scope = row.scope as SpendScope;
  const window = windowOf(period, now);
  const [spend, label] = await Promise.all([spendOf(db, { scope, scopeId: row.scopeId }, window, price), scopeLabel(db, scope, row.scopeId)]);
  return {
    id: row.id,
    scope,
    scopeId: row.scopeId,
    scopeLabel: scope === "workspace" ? "Workspace" : label,
    period,
    amountUsd: row.amountUsd,
    // A row is written only through setSpendLimitInput; anything else reads as the default.
    onReached: row.onReached === "stop" ? "stop" : "ask",
    windowStart: window.start.toISOString(),
    windowEnd: window.end.toISOString(),
    spend,
    reached: limitReached(row.amountUsd, spend),
    updatedAt: row.updatedAt.toISOString(),
    updatedBy: row.updatedBy,
  };
}

const SCOPE_ORDER: Record<SpendScope, number> = { workspace: 0, graph: 1, user: 2, api_key: 3 };

/** Every limit with its scope's spend in its current window: workspace first, then graphs, users and keys. */
export async function listSpendLimits(db: Db, now = new Date(), price?: PriceAt): Promise<SpendLimitView[]> {
  const rows = await db.spendLimit.findMany({ take: SPEND_LIMITS.perWorkspace });
  rows.sort((a, b) => SCOPE_ORDER[a.scope as SpendScope] - SCOPE_ORDER[b.scope as SpendScope] || a.scopeId.localeCompare(b.scopeId) || a.period.localeCompare(b.period));
  const prices = price ?? (await currentPricing(db));
  return Promise.all(rows.map((row) => view(db, row, now, prices)));
}

export async function getSpendLimit(db: Db, id: string, now = new Date()): Promise<SpendLimitView> {
  const row = await db.spendLimit.findUnique({ where: { id } });
  if (!row) throw new SpendLimitNotFound(id);
  return view(db, row, now, await currentPricing(db));
}

/** Creates or replaces the limit of one scope and period (audited with the amount it replaced). */
export async function setSpendLimit(db: Db, raw: SetSpendLimitRequest, actor: Actor): Promise<SpendLimitView> {
  const input = setSpendLimitInput.parse(raw);
  requireMayChange(actor, input.scope);
  await requireTarget(db, input);
  const scopeId = input.scope === "workspace" ? "" : input.scopeId;
  const row = await writeTransaction(db, async (tx) => {
    const key = { scope: input.scope, scopeId, period: input.period };
    const current = await tx.spendLimit.findUnique({ where: { scope_scopeId_period: key } });
    if (!current && (await tx.spendLimit.count()) >= SPEND_LIMITS.perWorkspace) throw new ConflictError(`The workspace already keeps ${SPEND_LIMITS.perWorkspace} spend limits, the most it may; remove one first`);
    const saved = current
      ? await tx.spendLimit.update({ where: { id: current.id }, data: { amountUsd: input.amountUsd, onReached: input.onReached, updatedBy: actor.id } })
      : await tx.spendLimit.create({ data: { id: limitId(), ...key, amountUsd: input.amountUsd, onReached: input.onReached, createdBy: actor.id, updatedBy: actor.id } });
    await appendAuditInTransaction(tx, {
      actorId: actor.id,
      action: "spend_limit.set",
      target: saved.id,
      details: { ...key, amountUsd: input.amountUsd, onReached: input.onReached, previousUsd: current?.amountUsd ?? null, previousOnReached: current?.onReached ?? null },
    });
    return saved;
  });
  return view(db, row, new Date(), await currentPricing(db));
}

/** Removes a limit: runs of its scope are no longer refused by it. */
export async function removeSpendLimit(db: Db, id: string, actor: Actor): Promise<{ removed: string }> {
  const row = await db.spendLimit.findUnique({ where: { id } });
  if (!row) throw new SpendLimitNotFound(id);
  requireMayChange(actor, row.scope as SpendScope);
  await writeTransaction(db, async (tx) => {
    await tx.spendLimit.deleteMany({ where: { id } });
    await appendAuditInTransaction(tx, { actorId: actor.id, action: "spend_limit.removed", target: id, details: { scope: row.scope, scopeId: row.scopeId, period: row.period, amountUsd: row.amountUsd } });
  });
  return { removed: id };
}
