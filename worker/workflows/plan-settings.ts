import type { PlanSettings } from "../../lib/agents/schemas";

/** A plan's settings when the graph names none (graphs saved before a setting existed get its default). */
export const DEFAULT_PLAN_SETTINGS: PlanSettings = { maxNodes: 50, concurrency: 4, approval: false, nodeRetries: 1 };
