// The readers' door to a step's duration (the trace, the span details, the
// compare page): its one definition is in lib/contract/step-duration.ts, where
// the workflow code that emits the events can import it too.
export { spanDurationMs, stepDurationMs } from "../contract/step-duration";
