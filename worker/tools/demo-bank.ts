// The demo bank's tools (their ids keep the published names ledger_*).
// ledger_transfer is the side-effecting tool that makes approvals and
// exactly-once execution visible.
import { BUILTIN_TOOL_INPUTS } from "../../lib/tools/arguments";
import { BUILTIN_TOOL_OUTPUTS } from "../../lib/tools/output-schemas";
import { writeTransaction } from "../../lib/db/transactions";
import { ToolUserError, type BuiltinTool, type ToolContext } from "./types";

const ledgerTransferSchema = BUILTIN_TOOL_INPUTS.ledger_transfer;

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
  outputSchema: BUILTIN_TOOL_OUTPUTS.ledger_transfer,
  sideEffect: true,
  async execute(args, context) {
    if (args.from_account === args.to_account) throw new ToolUserError("from_account and to_account must differ");
    const cents = Math.round(args.amount * 100);
    // The transfer and the record of this call commit together: a retry after
    // a crash either finds the record (and returns it) or redoes everything.
    // Two attempts of one call racing each other (an activity retried while the
    // first is still running) collide on the record's key; the loser's
    // transaction is rolled back and, re-run, finds the winner's record.
    const result = await writeTransaction(
      context.db,
      async (tx) => {
        const done = await tx.toolExecution.findUnique({ where: { key: context.idempotencyKey } });
        if (done) return { ...(JSON.parse(done.result) as Record<string, unknown>), replayed: true };
        const [from, to] = await Promise.all([
          tx.ledgerAccount.findUnique({ where: { id: args.from_account } }),
          tx.ledgerAccount.findUnique({ where: { id: args.to_account } }),
        ]);
        if (!from) throw new ToolUserError(`unknown account "${args.from_account}"`);
        if (!to) throw new ToolUserError(`unknown account "${args.to_account}"`);
        // The balance check is part of the debit, so it holds whatever ran since the read.
        const debit = async () => (await tx.ledgerAccount.updateMany({ where: { id: from.id, balanceCents: { gte: cents } }, data: { balanceCents: { decrement: cents } } })).count === 1;
        const credit = () => tx.ledgerAccount.update({ where: { id: to.id }, data: { balanceCents: { increment: cents } } });
        // Rows are written in id order, so opposite transfers cannot deadlock each other on PostgreSQL.
        let funded: boolean;
        if (from.id < to.id) {
          funded = await debit();
          await credit();
        } else {
          await credit();
          funded = await debit();
        }
        if (!funded) throw new ToolUserError(`insufficient funds in ${from.id}`);
        const entry = await tx.ledgerEntry.create({
          data: { fromAccount: from.id, toAccount: to.id, amountCents: cents, memo: args.memo ?? "", runId: context.rootRunId, idempotencyKey: context.idempotencyKey },
        });
        const outcome = { transfer_id: entry.id, from_account: from.id, to_account: to.id, amount: cents / 100, status: "completed" };
        await tx.toolExecution.create({
          data: { key: context.idempotencyKey, toolName: "ledger_transfer", runId: context.rootRunId, result: JSON.stringify(outcome) },
        });
        return outcome;
      },
      // Read committed is enough here (the debit guards the balance, the key guards
      // against repeats) and lets concurrent transfers queue on the account rows
      // instead of failing each other on PostgreSQL.
      { retryOnUniqueViolation: true, isolation: "read-committed" },
    );
    if (args.hold_ms) await pause(args.hold_ms, context);
    return result;
  },
};

const ledgerBalanceSchema = BUILTIN_TOOL_INPUTS.ledger_balance;

export const ledgerBalance: BuiltinTool<typeof ledgerBalanceSchema> = {
  id: "ledger_balance",
  description: "Read the balance of a demo ledger account (operating, refunds, savings).",
  schema: ledgerBalanceSchema,
  outputSchema: BUILTIN_TOOL_OUTPUTS.ledger_balance,
  sideEffect: false,
  async execute(args, { db }) {
    const account = await db.ledgerAccount.findUnique({ where: { id: args.account } });
    if (!account) throw new ToolUserError(`unknown account "${args.account}"`);
    return { account: account.id, name: account.name, balance: account.balanceCents / 100 };
  },
};
