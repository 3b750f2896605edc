// Example custom scorer: every tool call of the run succeeded (none errored or
// was rejected). value = share of calls that succeeded; a run without tool
// calls passes. Copy this file to add your own, then register it in ./index.ts.
import type { CustomScorer } from "./types";

export const noToolErrors: CustomScorer = (run) => {
  const calls = run.toolCalls;
  if (calls.length === 0) return { value: 1, pass: true, detail: "no tool calls" };
  const failed = calls.filter((call) => call.outcome !== "ok");
  const value = (calls.length - failed.length) / calls.length;
  if (failed.length === 0) return { value, pass: true, detail: `all ${calls.length} tool call(s) succeeded` };
  const named = failed.slice(0, 3).map((call) => `${call.tool} (${call.outcome})`).join(", ");
  return { value, pass: false, detail: `${failed.length} of ${calls.length} tool call(s) did not succeed: ${named}${failed.length > 3 ? " …" : ""}` };
};
