// Custom guardrail checks: built-in functions (check: "<name>") and tools an
// admin offers as checks on a registered MCP server (check: "<server>__<tool>").
// Never user code on the server: a name is looked up here or in the registry,
// and a name nobody registered trips (fail closed) rather than letting the text through.
import { z } from "zod";
import { mcpCheckOf } from "../../lib/guardrails/custom-checks";
import type { GuardrailVerdict } from "../../lib/guardrails/schemas";
import { McpError, type McpConnections } from "../tools/mcp";

/** What a custom check needs of the worker's MCP connections (null: this worker reaches no MCP server). */
export type McpCheckCaller = Pick<McpConnections, "callCheck">;

type CustomCheck = (text: string) => GuardrailVerdict;

/** Phrases that try to override an agent's instructions (a heuristic, case-insensitive, linear-time). */
const INJECTION_PHRASES = [
  "ignore previous instructions",
  "ignore all previous instructions",
  "ignore the above",
  "disregard previous instructions",
  "disregard your instructions",
  "forget your instructions",
  "you are now",
  "reveal your system prompt",
  "print your system prompt",
  "act as dan",
];

function promptInjection(text: string): GuardrailVerdict {
  const lower = text.toLowerCase().replace(/\s+/g, " ");
  const found = INJECTION_PHRASES.filter((phrase) => lower.includes(phrase)).length;
  // Whole-text verdict (not maskable): the phrases were matched on a normalised copy, whose offsets are not the text's.
  return found
    ? { tripped: true, reason: `the text holds ${found} phrase(s) that try to override the agent's instructions`, findings: [] }
    : { tripped: false, reason: "no instruction-override phrase found", findings: [] };
}

/** Trips on control characters other than tab and line breaks (hidden instructions, terminal escapes). */
function controlCharacters(text: string): GuardrailVerdict {
  const count = (text.match(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g) ?? []).length;
  return count ? { tripped: true, reason: `the text holds ${count} control character(s)`, findings: [] } : { tripped: false, reason: "no control characters", findings: [] };
}

export const CUSTOM_CHECK_FUNCTIONS: Readonly<Record<string, CustomCheck>> = {
  prompt_injection: promptInjection,
  control_characters: controlCharacters,
};

/**
 * What an MCP check answers, as structured content or as JSON text: `tripped`, a sentence saying why, and
 * optionally a score (0–1). Strict: a reply of another shape is not read as a pass.
 */
const mcpVerdictSchema = z.strictObject({
  tripped: z.boolean(),
  reason: z.string().max(2_000).optional(),
  score: z.number().min(0).max(1).optional(),
});

/** The verdict in an MCP check's reply, or null when it holds none (structured content first, then the text as JSON). */
export function mcpVerdictOf(reply: { structuredContent?: Record<string, unknown>; text: string }): z.infer<typeof mcpVerdictSchema> | null {
  const candidates: unknown[] = [];
  if (reply.structuredContent !== undefined) candidates.push(reply.structuredContent);
  try {
    candidates.push(JSON.parse(reply.text));
  } catch {
    // Not JSON: only structured content can hold the verdict.
  }
  for (const candidate of candidates) {
    const parsed = mcpVerdictSchema.safeParse(candidate);
    if (parsed.success) return parsed.data;
  }
  return null;
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

async function runMcpCheck(name: string, named: { server: string; tool: string }, text: string, mcp: McpCheckCaller | null): Promise<GuardrailVerdict> {
  if (!mcp) return { tripped: true, reason: `this worker reaches no MCP server, so the check "${name}" could not run`, findings: [] };
  let reply;
  try {
    reply = await mcp.callCheck(named.server, named.tool, text);
  } catch (error) {
    // Not registered, or no longer offered as a check: no retry can help, so the guardrail trips now. An outage is
    // thrown: the activity retries it, and a check that never ran trips the guardrail in the workflow.
    if (error instanceof McpError && !error.retryable) return { tripped: true, reason: error.publicMessage, findings: [] };
    throw error;
  }
  if (reply.isError) return { tripped: true, reason: `the check "${name}" reported an error: ${clip(reply.text)}`, findings: [] };
  const verdict = mcpVerdictOf(reply);
  if (!verdict) return { tripped: true, reason: `the check "${name}" answered something other than { tripped, reason }`, findings: [] };
  const reason = verdict.reason ? clip(verdict.reason) : verdict.tripped ? `the check "${name}" tripped` : `the check "${name}" passed`;
  // Whole-text verdict: the server names no spans, so nothing can be masked.
  return { tripped: verdict.tripped, reason, findings: [], ...(verdict.score === undefined ? {} : { score: verdict.score }) };
}

export function runCustomCheck(name: string, text: string, mcp: McpCheckCaller | null = null): Promise<GuardrailVerdict> {
  const named = mcpCheckOf(name);
  if (named) return runMcpCheck(name, named, text, mcp);
  const check = Object.hasOwn(CUSTOM_CHECK_FUNCTIONS, name) ? CUSTOM_CHECK_FUNCTIONS[name] : undefined;
  if (!check) return Promise.resolve({ tripped: true, reason: `no custom check named "${name}" is registered on the worker`, findings: [] });
  return Promise.resolve(check(text));
}
