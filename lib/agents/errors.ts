// The agent graph's own error, beside the validator that finds the problems
// (the engine and the designer both raise it; it is not the engine's).
import { AppError, type FieldIssue } from "../errors";

export class InvalidConfig extends AppError {
  constructor(issues: FieldIssue[], message = "The agent graph is invalid") {
    super("validation_failed", 422, message, issues);
    this.name = "InvalidConfig";
  }
}
