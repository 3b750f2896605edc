// Demo ledger tools. ledger_transfer is the side-effecting tool that makes
// approvals and exactly-once execution visible.
import { z } from "zod";
import { ToolUserError, type BuiltinTool, type ToolContext } from "./types";

const amount = z.number().positive("amount must be positive").max(1_000_000, "amount is over the 1,000,000 limit");

export const ledgerTransferSchema = z.object({
  from_account: z.string().min(1),
  to_account: z.string().min(1),
  amount,
  memo: z.string().max(200).optional(),
  /** Demo only: wait this long after recording the transfer, so a crash can be simulated mid-call. */
  hold_ms: z.number().int().min(0).max(30_000).optional(),
});

function pause(ms: number, context: ToolContext): Promise<void> {
  return new Promise((resolve) => {
    const started = Date.now();
    const tick = setInterval(() => {
      context.heartbeat();
      if (Date.now() - started >= ms || context.signal.aborted) {
        clearInterval(tick);
        resolve();
      }
    }, 100);
  });
}

export const ledgerTransfer: BuiltinTool<typeof ledgerTransferSchema> = {
  id: "ledger_transfer",
  description: "Move money between two demo ledger accounts. Accounts: operating, refunds, savings. Amount in dollars.",
  schema: ledgerTransferSchema,
  sideEffect: true,
  async execute(args, context) {
    if (args.from_account === args.to_account) throw new ToolUserError("from_account and to_account must differ");
    const cents = Math.round(args.amount * 100);
    const { db } = context;
    // The transfer and the record of this call commit together: a retry after
    // a crash either finds the record (and returns it) or redoes everything.
    const result = await db.$transaction(async (tx) => {
      const done = await tx.toolExecution.findUnique({ where: { key: context.idempotencyKey } });
      if (done) return { ...(JSON.parse(done.result) as Record<string, unknown>), replayed: true };
      const [from, to] = await Promise.all([
        tx.ledgerAccount.findUnique({ where: { id: args.from_account } }),
        tx.ledgerAccount.findUnique({ where: { id: args.to_account } }),
      ]);
      if (!from) throw new ToolUserError(`unknown account "${args.from_account}"`);
      if (!to) throw new ToolUserError(`unknown account "${args.to_account}"`);
      if (from.balanceCents < cents) throw new ToolUserError(`insufficient funds in ${from.id}`);
      await tx.ledgerAccount.update({ where: { id: from.id }, data: { balanceCents: { decrement: cents } } });
      await tx.ledgerAccount.update({ where: { id: to.id }, data: { balanceCents: { increment: cents } } });
      const entry = await tx.ledgerEntry.create({
        data: { fromAccount: from.id, toAccount: to.id, amountCents: cents, memo: args.memo ?? "", runId: context.rootRunId, idempotencyKey: context.idempotencyKey },
      });
      const outcome = { transfer_id: entry.id, from_account: from.id, to_account: to.id, amount: cents / 100, status: "completed" };
      await tx.toolExecution.create({
        data: { key: context.idempotencyKey, toolName: "ledger_transfer", runId: context.rootRunId, result: JSON.stringify(outcome) },
      });
      return outcome;
    });
    if (args.hold_ms) await pause(args.hold_ms, context);
    return result;
  },
};

export const ledgerBalanceSchema = z.object({ account: z.string().min(1) });

export const ledgerBalance: BuiltinTool<typeof ledgerBalanceSchema> = {
  id: "ledger_balance",
  description: "Read the balance of a demo ledger account (operating, refunds, savings).",
  schema: ledgerBalanceSchema,
  sideEffect: false,
  async execute(args, { db }) {
    const account = await db.ledgerAccount.findUnique({ where: { id: args.account } });
    if (!account) throw new ToolUserError(`unknown account "${args.account}"`);
    return { account: account.id, name: account.name, balance: account.balanceCents / 100 };
  },
};
