// The registry of custom scorers, by the name an experiment's `{ kind: "custom", name }` uses.
// To add one: write lib/experiments/scoring/custom/<name>.ts exporting a CustomScorer and list it here.
import type { ScorerConfig } from "../types";
import { noToolErrors } from "./no-tool-errors";
import type { CustomScorer } from "./types";

export type { CustomScorer } from "./types";

const registry: Readonly<Record<string, CustomScorer>> = {
  "no-tool-errors": noToolErrors,
};

/** Names of the registered custom scorers, sorted (for validation at experiment start and for the form). */
export function customScorerNames(): string[] {
  return Object.keys(registry).sort();
}

export function customScorer(name: string): CustomScorer | undefined {
  return Object.hasOwn(registry, name) ? registry[name] : undefined;
}

/** Problems with the custom scorers a scorer list names: one sentence per unknown name, naming the known ones. */
export function unknownCustomScorers(scorers: ScorerConfig[]): string[] {
  return scorers
    .filter((config): config is Extract<ScorerConfig, { kind: "custom" }> => config.kind === "custom")
    .filter((config) => customScorer(config.name) === undefined)
    .map((config) => `unknown custom scorer "${config.name}" (known: ${customScorerNames().join(", ") || "none"})`);
}
