// DD-7: an agent may inherit its model from the agent that asked it (a parent,
// a router, the sender of a handoff). Zod-free: workflow code resolves it.

/** The model id an agent uses to inherit its model. */
export const INHERIT_MODEL = "inherit";

/** The model a run uses when an inheriting agent has nobody to inherit from (only possible for runs started by hand). */
export const FALLBACK_MODEL = "demo/assistant";

/** The model an agent runs with: its own, or the one it inherits. */
export function effectiveModel(model: string, inherited: string | null | undefined): string {
  return model === INHERIT_MODEL ? (inherited ?? FALLBACK_MODEL) : model;
}
