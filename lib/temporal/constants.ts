// Names shared by the web server (which starts workflows) and the worker (which runs them).

/** Workflow type names, as registered by worker/workflows/index.ts. */
export const WORKFLOW_TYPES = {
  smoke: "smokeWorkflow",
} as const;

/** Workflow id prefixes, so runs are recognisable in the Temporal UI. */
export const WORKFLOW_ID_PREFIXES = {
  smoke: "smoke",
} as const;
