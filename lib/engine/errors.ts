// Typed engine errors, in the AppError family so routes and actions map them to
// HTTP codes. A missing saved agent is the agents domain's (lib/agents/errors.ts);
// Temporal being unreachable is the HTTP error mapper's (lib/http/server/error-mapper.ts).
import { AppError } from "../errors";

export class RunNotFound extends AppError {
  constructor(runId: string) {
    super("not_found", 404, `There is no run "${runId}"`);
    this.name = "RunNotFound";
  }
}

export class ApprovalNotFound extends AppError {
  constructor(message: string) {
    super("not_found", 404, message);
    this.name = "ApprovalNotFound";
  }
}

/** A follow-up sent while the run works on a turn, to a graph whose follow-up policy is `reject`; the message says why. */
export class RunBusy extends AppError {
  constructor(message: string) {
    super("conflict", 409, message);
    this.name = "RunBusy";
  }
}

/** A message to a `reject` or `interrupt` run whose worker did not take it in time (none running, or all busy). */
export class RunWorkerSilent extends AppError {
  constructor(runId: string, seconds: number) {
    super(
      "unavailable",
      503,
      `Run "${runId}" did not take the message within ${seconds} s: its worker is not running or is busy. The message may still reach the run when a worker takes it, so check the run before sending it again.`,
    );
    this.name = "RunWorkerSilent";
  }
}

export class ApprovalAlreadyDecided extends AppError {
  constructor(message: string) {
    super("conflict", 409, message);
    this.name = "ApprovalAlreadyDecided";
  }
}

export class RunNotActive extends AppError {
  constructor(runId: string, status: string) {
    super("conflict", 409, `Run "${runId}" has ended (${status}) and cannot take this action`);
    this.name = "RunNotActive";
  }
}
