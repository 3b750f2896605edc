// Visible, timed start-up steps with one clear line on failure.
import { debugRequested } from "../../lib/config/env";
import { CommandFailedError } from "./run";

/** A failure whose message says what went wrong and `hint` says what to do. */
export class StepError extends Error {
  constructor(
    message: string,
    readonly hint: string,
    readonly details?: string,
  ) {
    super(message);
    this.name = "StepError";
  }
}

function seconds(since: number): string {
  return `${((performance.now() - since) / 1000).toFixed(1)} s`;
}

/** Runs one step: prints its name, then ✓ with its duration, or ✗ with the reason and what to do. */
export async function step<T>(name: string, action: () => Promise<T>, describe?: (result: T) => string): Promise<T> {
  const started = performance.now();
  process.stdout.write(`▸ ${name}…\n`);
  try {
    const result = await action();
    const extra = describe ? `: ${describe(result)}` : "";
    console.log(`✓ ${name}${extra} (${seconds(started)})`);
    return result;
  } catch (error) {
    throw new StepFailure(name, error);
  }
}

/** Wraps the error of a failed step so the top level can print it uniformly. */
export class StepFailure extends Error {
  constructor(
    readonly step: string,
    readonly reason: unknown,
  ) {
    super(`${step} failed`);
    this.name = "StepFailure";
  }
}

/** Prints a step failure as: one line naming the step and what to do, then the details. */
export function reportFailure(error: unknown): void {
  const stepName = error instanceof StepFailure ? error.step : "start-up";
  const cause = error instanceof StepFailure ? error.reason : error;
  if (cause instanceof StepError) {
    console.error(`✗ ${stepName}: ${cause.message} — ${cause.hint}`);
    if (cause.details) console.error(indent(cause.details));
  } else if (cause instanceof CommandFailedError) {
    console.error(`✗ ${stepName}: ${cause.message} — see the output below, fix the cause and run the command again.`);
    console.error(indent(cause.outputTail));
  } else {
    const message = cause instanceof Error ? cause.message : String(cause);
    console.error(`✗ ${stepName}: ${message.split("\n")[0]}`);
    const rest = message.split("\n").slice(1).join("\n");
    if (rest) console.error(indent(rest));
    if (debugRequested() && cause instanceof Error && cause.stack) console.error(indent(cause.stack));
  }
}

function indent(text: string): string {
  return text
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}
