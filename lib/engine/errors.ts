// Typed engine errors, in the AppError family so routes and actions map them to HTTP codes.
import { AppError } from "../errors";

export class AgentNotFound extends AppError {
  constructor(name: string, version?: number) {
    super("not_found", 404, version === undefined ? `There is no saved agent named "${name}"` : `The saved agent "${name}" has no version ${version}`);
    this.name = "AgentNotFound";
  }
}

export class RunNotFound extends AppError {
  constructor(runId: string) {
    super("not_found", 404, `No run "${runId}"`);
    this.name = "RunNotFound";
  }
}

export class ApprovalNotFound extends AppError {
  constructor(message: string) {
    super("not_found", 404, message);
    this.name = "ApprovalNotFound";
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

export class EngineUnavailable extends AppError {
  constructor() {
    super("unavailable", 503, "The engine (Temporal) is not reachable; check /api/health");
    this.name = "EngineUnavailable";
  }
}
