// System-prompt templates: `{{context.customer.name}}` is replaced with the
// value at that path of the run's context. Pure, so the workflow can use it.

const PLACEHOLDER = /\{\{\s*context((?:\.[A-Za-z0-9_-]+)+)\s*\}\}/g;

function lookup(context: unknown, path: string[]): unknown {
  let value: unknown = context;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Renders placeholders; a missing value renders as an empty string and is reported. */
export function renderPrompt(template: string, context: Record<string, unknown>): { text: string; missing: string[] } {
  const missing: string[] = [];
  const text = template.replace(PLACEHOLDER, (_match, dotted: string) => {
    const path = dotted.slice(1).split(".");
    const value = lookup(context, path);
    if (value === undefined || value === null) {
      missing.push(`context.${path.join(".")}`);
      return "";
    }
    return typeof value === "string" ? value : JSON.stringify(value);
  });
  return { text, missing };
}
