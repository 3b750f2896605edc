import type { ErrorBody } from "@/lib/errors";

/** An action's refusal in one line: its message and each issue's path. */
export function describeError(error: ErrorBody): string {
  return error.issues?.length ? `${error.message}: ${error.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}` : error.message;
}
