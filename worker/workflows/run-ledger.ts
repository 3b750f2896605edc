// The run ledger's writer inside the workflow: a background coroutine that
// writes what the run's outbox collected (events, spans, messages, approvals,
// the run row's summary) to the database through a local activity, one batch
// at a time and in order, so a newer state never lands before an older one.
import { CancellationScope, condition, proxyLocalActivities } from "@temporalio/workflow";
import type { LedgerActivities } from "../activities/ledger";
import type { LedgerRunIdentity, LedgerRunSummary } from "../../lib/contract/workflow";
import type { RunState } from "./run-state";

// No attempt limit: a ledger write must land (a busy or restarting database
// delays the run; it never drops a record). Writes are idempotent, so replays
// after a worker crash rewrite the same rows.
const { recordLedger } = proxyLocalActivities<LedgerActivities>({
  startToCloseTimeout: "30 seconds",
  localRetryThreshold: "10 seconds",
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
  private writing = false;
  /** Settles when the local activity holding the turn is done. */
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly state: RunState,
    private readonly identity: LedgerRunIdentity,
    private readonly summary: () => LedgerRunSummary,
  ) {}

  /** Starts the writer; it outlives cancellation of the run so the final events land too. */
  start(): void {
    void CancellationScope.nonCancellable(() => this.pump());
  }

  /**
   * Runs `call`, a local activity, in its turn; with `writeFirst`, after
   * writing what the run has emitted so far (a model call reads the
   * conversation from the ledger, and the trace shows it while it runs).
   * Without, the writer's next batch waits its turn: the parallel built-in
   * tool calls of an iteration run back to back and share one write.
   */
  exclusive<T>(call: () => Promise<T>, options: { writeFirst: boolean }): Promise<T> {
    return this.inTurn(async () => {
      if (options.writeFirst) await this.writePending();
      return call();
    });
  }

  /** Resolves once everything emitted so far is written, in turn with the local activities. */
  written(): Promise<void> {
    return this.inTurn(() => this.writePending());
  }

  /** Resolves once everything emitted so far is in the database. */
  flushed(): Promise<void> {
    return CancellationScope.nonCancellable(() => condition(() => !this.writing && !this.state.outbox.hasWork()));
  }

  private inTurn<T>(work: () => Promise<T>): Promise<T> {
    const result = this.turn.then(work);
    this.turn = result.catch(() => undefined);
    return result;
  }

  private async pump(): Promise<void> {
    for (;;) {
      await condition(() => this.state.outbox.hasWork());
      await this.written();
    }
  }

  private async writePending(): Promise<void> {
    if (!this.state.outbox.hasWork()) return;
    this.writing = true;
    try {
      // Not cancellable: what the outbox handed over must land even when the run is being cancelled.
      await CancellationScope.nonCancellable(() => recordLedger({ run: this.identity, summary: this.summary(), ...this.state.outbox.take() }));
    } finally {
      this.writing = false;
    }
  }
}
