// How a plan node's message introduces its dependencies' results. Shared by the
// scheduler (workflow code), which ends the message with it, and the model
// call (worker/activities/dependency-results.ts), which appends the results
// read by reference under it, one line each: `- <node> (<agent>): <result>`.
export const RESULTS_HEADING = "Results of the nodes this one depends on:";
