// The vision check every door shares (through the engine client): a message
// with images goes only to a model that reads them. Browser-safe, so the run
// dialog can warn with the same rule before it sends anything.
import type { AgentGraph } from "../agents/schemas";
import { effectiveModel } from "../agents/model-inheritance";
import { supportsVision, type CatalogOptions } from "./catalog";
import { VisionNotSupportedError } from "./errors";

/** The model an agent of a graph answers with (an override is already in the graph; `inherit` takes `parentModel`), or null when the graph has no such agent. */
export function agentModel(graph: Pick<AgentGraph, "agents">, agentName: string, parentModel?: string | null): string | null {
  const agent = graph.agents.find((a) => a.name === agentName);
  return agent ? effectiveModel(agent.model, parentModel) : null;
}

/** Throws VisionNotSupportedError (422 `vision_not_supported`, naming the model) when a message with images would reach a model without vision. */
export function requireVision(model: string | null, imageCount: number, options: CatalogOptions = {}): void {
  if (imageCount === 0 || model === null) return;
  if (!supportsVision(model, options)) throw new VisionNotSupportedError(model, options);
}
