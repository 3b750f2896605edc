// The agents domain's own errors (the engine, the launcher and the designer
// all raise them; they are not the engine's), in the AppError family.
import { AppError, type FieldIssue } from "../errors";

/** The agent graph is invalid; `issues` lists every problem with its path. */
export class InvalidConfig extends AppError {
  constructor(issues: FieldIssue[], message = "The agent graph is invalid") {
    super("validation_failed", 422, message, issues);
    this.name = "InvalidConfig";
  }
}

/** No saved agent of that name (or no such version of it); one sentence from every door. */
export class AgentNotFound extends AppError {
  constructor(name: string, version?: number) {
    super("not_found", 404, version === undefined ? `There is no saved agent named "${name}"` : `The saved agent "${name}" has no version ${version}`);
    this.name = "AgentNotFound";
  }
}
