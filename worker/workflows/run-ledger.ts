// The run ledger's writer inside the workflow. What the run's outbox collects
// (events, spans, messages, approvals, the run row's summary) reaches the
// database in order, one batch at a time, so a newer state never lands before
// an older one, by one of two carriers:
//  - the next model call: the inference local activity writes the batch while
//    the model works, so the write costs an iteration nothing;
//  - a background writer, when the run has no local activity in line (it waits
//    for a person, a sub-agent or a regular activity, or it closes down).
import { CancellationScope, condition, patched, proxyActivities, proxyLocalActivities } from "@temporalio/workflow";
import type { LedgerActivities } from "../activities/ledger";
import type { LedgerBatch, LedgerRunIdentity, LedgerRunSummary } from "../../lib/contract/workflow";
import type { RunState } from "./run-state";

// No attempt limit: a ledger write must land (a busy or restarting database
// delays the run; it never drops a record). Writes are idempotent, so replays
// after a worker crash rewrite the same rows.
/**
 * Marks runs whose model calls carry the ledger (and run eager tools). A run
 * started by an older worker wrote the ledger before each model call and ran
 * every tool as its own activity: replayed, it must schedule the same.
 */
const CARRIED_LEDGER_PATCH = "ledger-carried-by-model-calls";

const { recordLedger } = proxyLocalActivities<LedgerActivities>({
  startToCloseTimeout: "30 seconds",
  localRetryThreshold: "10 seconds",
  retry: { initialInterval: "200 milliseconds", backoffCoefficient: 2, maximumInterval: "10 seconds" },
});

/**
 * Marks runs whose background writes (the writer below, when no model call
 * carries the batch) are regular activities. A local activity's result can be
 * recorded in a later workflow task than the one that scheduled it — seen when
 * a query arrived while it ran — and a replay then resolves it earlier, before
 * the events that arrived meanwhile (a plan node's child ending, a cancel):
 * what the writer had taken by then, and so whether it wrote again, differed,
 * and the replay failed ("Missing associated machine for LocalActivity(7)",
 * worker/engine-tests/orchestration-edges.int.test.ts under load). A regular
 * activity's result is an event of its own, at one place in the history.
 */
const LEDGER_WRITER_ACTIVITY_PATCH = "ledger-writer-regular-activity";

const { recordLedger: recordLedgerInHistory } = proxyActivities<LedgerActivities>({
  startToCloseTimeout: "30 seconds",
  retry: { initialInterval: "200 milliseconds", backoffCoefficient: 2, maximumInterval: "10 seconds" },
});

/**
 * The writer, and the turn every local activity of the run takes. A first
 * execution resolves concurrent local activities in the order they finish, a
 * replay in the order they were scheduled (the cause of temporalio/sdk-python#1573).
 * Whatever one of them schedules when it resolves — the writer's next batch,
 * the next step of a parallel tool call — would then be scheduled in another
 * order on replay, and the replay fails with a nondeterminism error. One local
 * activity at a time makes both orders the same
 * (worker/engine-tests/replay.int.test.ts replays such runs).
 */
export class RunLedger {
  /** A batch is on its way to the database (a carrier holds it). */
  private writing = false;
  /** Local activities waiting for or holding the turn. */
  private inLine = 0;
  /** Settles when the local activity holding the turn is done. */
  private turn: Promise<unknown> = Promise.resolve();
  /** Model calls carry the ledger (false only while replaying a run of an older worker). */
  carrying = true;
  /** Background writes are regular activities (false only while replaying a run of an older worker). */
  private writerInHistory = true;

  constructor(
    private readonly state: RunState,
    private readonly identity: LedgerRunIdentity,
    private readonly summary: () => LedgerRunSummary,
  ) {}

  /** Starts the background writer; it outlives cancellation of the run so the final events land too. */
  start(): void {
    this.carrying = patched(CARRIED_LEDGER_PATCH);
    this.writerInHistory = patched(LEDGER_WRITER_ACTIVITY_PATCH);
    void CancellationScope.nonCancellable(() => this.pump());
  }

  /**
   * Runs `call`, a local activity, in its turn. With `carry`, the activity
   * also writes what the run has emitted so far and returns only once it is
   * written (`call` receives the batch, or null when nothing is pending).
   */
  exclusive<T>(call: (batch: LedgerBatch | null) => Promise<T>, options: { carry: boolean }): Promise<T> {
    return this.inTurn(async () => {
      if (!this.carrying && options.carry) await this.writePending();
      if (!this.carrying || !options.carry || !this.state.outbox.hasWork()) return call(null);
      this.writing = true;
      const batch = this.take();
      try {
        return await call(batch);
      } catch (error) {
        // Written or not, it is written again with what follows (idempotently, in order).
        this.state.outbox.restore(batch);
        throw error;
      } finally {
        this.writing = false;
      }
    });
  }

  /** Resolves once everything emitted so far is written, in turn with the local activities (a regular activity reads the ledger). */
  written(): Promise<void> {
    return this.inTurn(() => this.writePending());
  }

  /** Resolves once everything emitted so far is in the database. */
  flushed(): Promise<void> {
    // A run of an older worker waited for the write alone (its replay must decide at the same moment).
    return CancellationScope.nonCancellable(() => condition(() => !this.writing && (this.inLine === 0 || !this.carrying) && !this.state.outbox.hasWork()));
  }

  private take(): LedgerBatch {
    return { run: this.identity, summary: this.summary(), ...this.state.outbox.take() };
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    this.inLine++;
    const result = this.turn.then(work).finally(() => this.inLine--);
    this.turn = result.catch(() => undefined);
    return result;
  }

  /** Writes only when no local activity is in line: the next one would carry the batch anyway, for free. */
  private async pump(): Promise<void> {
    for (;;) {
      await condition(() => (this.inLine === 0 || !this.carrying) && this.state.outbox.hasWork());
      await this.written();
    }
  }

  private async writePending(): Promise<void> {
    if (!this.state.outbox.hasWork()) return;
    this.writing = true;
    try {
      // Not cancellable: what the outbox handed over must land even when the run is being cancelled.
      const batch = this.take();
      await CancellationScope.nonCancellable(() => (this.writerInHistory ? recordLedgerInHistory(batch) : recordLedger(batch)));
    } finally {
      this.writing = false;
    }
  }
}
