/**
 * A count with its noun, singular when it is one: `plural(1, "agent")` is
 * "1 agent", `plural(3, "agent")` is "3 agents". Irregular nouns pass their
 * plural (`plural(2, "sub-agent")` works as is; `plural(2, "policy", "policies")`).
 */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${count.toLocaleString("en")} ${count === 1 ? singular : pluralForm}`;
}
