// The run ledger's writer inside the workflow: a background coroutine that
// writes what the run's outbox collected (events, spans, messages, approvals,
// the run row's summary) to the database through a local activity, one batch
// at a time and in order, so a newer state never lands before an older one.
import { CancellationScope, condition, proxyLocalActivities } from "@temporalio/workflow";
import type { LedgerActivities } from "../activities/ledger";
import type { LedgerRunIdentity, LedgerRunSummary } from "../../lib/engine/workflow-types";
import type { RunState } from "./run-state";

// No attempt limit: a ledger write must land (a busy or restarting database
// delays the run; it never drops a record). Writes are idempotent, so replays
// after a worker crash rewrite the same rows.
const { recordLedger } = proxyLocalActivities<LedgerActivities>({
  startToCloseTimeout: "30 seconds",
  localRetryThreshold: "10 seconds",
  retry: { initialInterval: "200 milliseconds", backoffCoefficient: 2, maximumInterval: "10 seconds" },
});

export class RunLedger {
  private writing = false;

  constructor(
    private readonly state: RunState,
    private readonly identity: LedgerRunIdentity,
    private readonly summary: () => LedgerRunSummary,
  ) {}

  /** Starts the writer; it outlives cancellation of the run so the final events land too. */
  start(): void {
    void CancellationScope.nonCancellable(() => this.pump());
  }

  private async pump(): Promise<void> {
    for (;;) {
      await condition(() => this.state.outbox.hasWork());
      this.writing = true;
      try {
        await recordLedger({ run: this.identity, summary: this.summary(), ...this.state.outbox.take() });
      } finally {
        this.writing = false;
      }
    }
  }

  /** Resolves once everything emitted so far is in the database. */
  flushed(): Promise<void> {
    return CancellationScope.nonCancellable(() => condition(() => !this.writing && !this.state.outbox.hasWork()));
  }
}
