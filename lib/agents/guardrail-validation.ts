// The rules of an agent's guardrails beyond their shape (lib/guardrails/schemas.ts):
// which action fits which kind and check, patterns RE2 can run, models and
// custom checks that exist. Browser-safe, so the designer shows each problem
// next to its field while the builder types; the server adds the JSON Schema
// compiler (ServerChecks in validate.ts).
import { compileRegexCheck } from "../guardrails/checks";
import { customCheckNameProblem } from "../guardrails/custom-checks";
import { MASKABLE_CHECKS, type Guardrail } from "../guardrails/schemas";
import { matchesGlob } from "./glob";
import { MAX_OUTPUT_SCHEMA_BYTES, MODEL_ID_PATTERN, type AgentConfig } from "./schemas";

/** A guardrail problem with its path; validate.ts reports it as a GraphIssue (same fields, these codes). */
export interface GuardrailIssue {
  path: string;
  message: string;
  code: "invalid_guardrail" | "duplicate_guardrail" | "schema_too_large" | "pattern_matches_nothing";
}

/** The spelling approval rules allow for a tool name or glob. */
const TOOL_PATTERN = /^[A-Za-z0-9_*?.-]{1,100}$/;

const isToolKind = (kind: Guardrail["kind"]) => kind === "tool_call" || kind === "tool_result";

/**
 * Every problem with `agent`'s guardrails (the agent at `agents[index]`): errors stop a save and a
 * run, warnings point at a guardrail that will never act. `toolNames` are the names the agent's
 * model may call that are known before any MCP server is asked (knownToolNames).
 */
export function checkGuardrails(agent: AgentConfig, index: number, toolNames: readonly string[]): { errors: GuardrailIssue[]; warnings: GuardrailIssue[] } {
  const errors: GuardrailIssue[] = [];
  const warnings: GuardrailIssue[] = [];
  const firstByName = new Map<string, number>();
  const openServers = agent.mcpServers.some((server) => !server.allowTools);
  agent.guardrails.forEach((guardrail, g) => {
    const at = `agents[${index}].guardrails[${g}]`;
    const error = (field: string, message: string, code: GuardrailIssue["code"] = "invalid_guardrail") => errors.push({ path: `${at}.${field}`, message, code });
    const earlier = firstByName.get(guardrail.name);
    if (earlier !== undefined) error("name", `another guardrail of this agent is named "${guardrail.name}" (guardrails[${earlier}])`, "duplicate_guardrail");
    else firstByName.set(guardrail.name, g);

    if (guardrail.tools && !isToolKind(guardrail.kind)) error("tools", `only tool guardrails (tool_call, tool_result) watch tools; an ${guardrail.kind} guardrail checks the ${guardrail.kind === "input" ? "task and follow-ups" : "final answer"}`);
    if (guardrail.parallel && guardrail.kind !== "input") error("parallel", "only input guardrails may run beside the first model call");
    if (guardrail.action === "mask" && !MASKABLE_CHECKS.includes(guardrail.check.type)) error("action", `mask redacts what a check found in the text: use it with a regex, deny-list or PII check (a ${guardrail.check.type} check finds no spans)`);
    if (guardrail.action === "rewrite" && guardrail.kind !== "output") error("action", "rewrite asks the model for a new final answer: only output guardrails may rewrite");
    if (guardrail.action === "inbox" && guardrail.kind !== "tool_call") error("action", "inbox holds a tool call for an approver: only tool_call guardrails may route to the inbox");

    if (guardrail.tools && isToolKind(guardrail.kind)) {
      guardrail.tools.forEach((pattern, t) => {
        if (!TOOL_PATTERN.test(pattern)) error(`tools[${t}]`, "use a tool name or glob (letters, digits, _ - . * ?)");
        else if (!openServers && !toolNames.some((name) => matchesGlob(pattern, name))) {
          warnings.push({ path: `${at}.tools[${t}]`, message: `"${pattern}" matches none of this agent's tools (${toolNames.join(", ") || "none"})`, code: "pattern_matches_nothing" });
        }
      });
    } else if (isToolKind(guardrail.kind) && toolNames.length === 0 && agent.mcpServers.length === 0) {
      warnings.push({ path: `${at}.kind`, message: "this agent has no tools, so a tool guardrail never runs", code: "pattern_matches_nothing" });
    }
    checkGuardrailCheck(guardrail, at, errors, warnings);
  });
  return { errors, warnings };
}

function checkGuardrailCheck(guardrail: Guardrail, at: string, errors: GuardrailIssue[], warnings: GuardrailIssue[]): void {
  const { check } = guardrail;
  switch (check.type) {
    case "regex":
      try {
        if (compileRegexCheck(check).matcher("").find()) {
          warnings.push({ path: `${at}.check.pattern`, message: "the pattern matches an empty text, so it trips on every text", code: "invalid_guardrail" });
        }
      } catch (error) {
        errors.push({ path: `${at}.check.pattern`, message: error instanceof Error ? error.message : String(error), code: "invalid_guardrail" });
      }
      return;
    case "judge":
      if (check.model !== undefined && !MODEL_ID_PATTERN.test(check.model)) {
        errors.push({ path: `${at}.check.model`, message: "use demo/<name>, openai/<model>, anthropic/<model> or openai-compatible/<provider>/<model> (or leave it empty for the agent's model)", code: "invalid_guardrail" });
      }
      return;
    case "json_schema": {
      const size = JSON.stringify(check.schema).length;
      if (size > MAX_OUTPUT_SCHEMA_BYTES) errors.push({ path: `${at}.check.schema`, message: `the schema is ${Math.ceil(size / 1024)} KB; at most ${MAX_OUTPUT_SCHEMA_BYTES / 1024} KB`, code: "schema_too_large" });
      return;
    }
    case "custom": {
      const problem = customCheckNameProblem(check.check);
      if (problem) errors.push({ path: `${at}.check.check`, message: problem, code: "invalid_guardrail" });
      return;
    }
    case "deny_list":
    case "pii":
    case "max_length":
      return;
  }
}

/** Where each json_schema guardrail's schema is, for the server's JSON Schema compiler. */
export function guardrailSchemas(agent: AgentConfig, index: number): { path: string; schema: Record<string, unknown> }[] {
  return agent.guardrails.flatMap((guardrail, g) => (guardrail.check.type === "json_schema" ? [{ path: `agents[${index}].guardrails[${g}].check.schema`, schema: guardrail.check.schema }] : []));
}
