// The labels domain's refusals, in the AppError family: one sentence from every door.
import { AppError } from "../errors";

export class LabelNotFound extends AppError {
  constructor(graph: string, label: string, known: readonly string[]) {
    super("not_found", 404, `The graph "${graph}" has no label "${label}"${known.length ? ` (its labels: ${known.join(", ")})` : " (it has no labels yet)"}`);
    this.name = "LabelNotFound";
  }
}

export class LabelRequestNotFound extends AppError {
  constructor(id: string) {
    super("not_found", 404, `There is no label request ${id}`);
    this.name = "LabelRequestNotFound";
  }
}
