// Which `{{context.…}}` placeholders a graph's prompts use, and which of them
// a context leaves empty. Browser-safe: the run dialog checks as you type and
// the server checks again before starting.
import { renderPrompt } from "../agents/template";

const PLACEHOLDER = /\{\{\s*context((?:\.[A-Za-z0-9_-]+)+)\s*\}\}/g;

/** Every placeholder path (`context.customer.name`) in the prompts, once each, in order. */
export function placeholdersOf(prompts: string[]): string[] {
  const found = new Set<string>();
  for (const prompt of prompts) for (const match of prompt.matchAll(PLACEHOLDER)) found.add(`context${match[1] ?? ""}`);
  return [...found];
}

/** The placeholders the context does not supply. */
export function missingPlaceholders(prompts: string[], context: Record<string, unknown>): string[] {
  return [...new Set(prompts.flatMap((prompt) => renderPrompt(prompt, context).missing))];
}
