"use client";
// What a failed run carries beyond its message: the schema errors of its last
// answer and that answer (validation_error), or the agents a router tried and
// how each ended (routing_exhausted).
import type { FailureDetails as Details } from "@/lib/contract/types";
import { hasFailureDetails } from "@/lib/runs/orchestration-view";
import { Payload } from "./payload";
import { plural } from "@/lib/text/plural";

export function FailureDetails({ details }: { details: Details | undefined }) {
  if (!hasFailureDetails(details)) return null;
  return (
    <div data-testid="failure-details" className="mt-2 space-y-2 rounded-md border border-red-200 bg-red-50/50 p-3">
      {details.errors?.length ? (
        <div>
          <p className="text-xs font-medium text-red-800">{plural(details.errors.length, "schema error")} in the last answer</p>
          <ul data-testid="failure-errors" className="mt-1 list-disc pl-5 text-sm text-red-900">
            {details.errors.map((error, i) => (
              <li key={i} className="break-words">
                {error}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {details.rawOutput !== undefined ? <Payload text={details.rawOutput} label="last answer (raw)" /> : null}
      {details.attempts?.length ? (
        <div>
          <p className="text-xs font-medium text-red-800">{plural(details.attempts.length, "agent")} tried</p>
          <ol data-testid="failure-attempts" className="mt-1 list-decimal pl-5 text-sm text-red-900">
            {details.attempts.map((attempt, i) => (
              <li key={i} className="break-words">
                <span className="font-medium">{attempt.agentName}</span>: {attempt.reason}
              </li>
            ))}
          </ol>
        </div>
      ) : null}
    </div>
  );
}
