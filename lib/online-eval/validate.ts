// What an evaluator's configuration must satisfy beyond its shape
// (lib/online-eval/schemas.ts): custom scorers registered, guardrail checks
// usable the way the designer checks an agent's (patterns RE2 can run, models
// spelled right, custom checks registered, JSON Schemas that compile). Pure,
// so the unit tests and the server share it; the server passes its JSON
// Schema compiler in.
import { compileRegexCheck } from "../guardrails/checks";
import { customCheckNameProblem } from "../guardrails/custom-checks";
import { MAX_OUTPUT_SCHEMA_BYTES, MODEL_ID_PATTERN } from "../agents/schemas";
import { unknownCustomScorers } from "../experiments/scoring/custom";
import type { FieldIssue } from "../errors";
import type { EvaluatorCheck } from "./schemas";

/** Every problem with an evaluator's checks, each with its path under `checks`. */
export function evaluatorCheckIssues(checks: readonly EvaluatorCheck[], jsonSchemaProblems: (schema: unknown) => string[]): FieldIssue[] {
  const issues: FieldIssue[] = [];
  checks.forEach((entry, index) => {
    const at = `checks.${index}`;
    if (entry.source === "scorer") {
      for (const problem of unknownCustomScorers([entry.scorer])) issues.push({ path: `${at}.scorer.name`, message: problem });
      if (entry.scorer.kind === "json_schema") for (const problem of jsonSchemaProblems(entry.scorer.schema)) issues.push({ path: `${at}.scorer.schema`, message: `not a valid JSON Schema: ${problem}` });
      if (entry.scorer.kind === "judge" && entry.scorer.model !== undefined && !MODEL_ID_PATTERN.test(entry.scorer.model)) issues.push({ path: `${at}.scorer.model`, message: "use demo/<name>, openai/<model>, anthropic/<model> or openai-compatible/<provider>/<model>" });
      return;
    }
    const check = entry.check;
    switch (check.type) {
      case "regex":
        try {
          compileRegexCheck(check);
        } catch (error) {
          issues.push({ path: `${at}.check.pattern`, message: error instanceof Error ? error.message : String(error) });
        }
        return;
      case "judge":
        if (check.model !== undefined && !MODEL_ID_PATTERN.test(check.model)) issues.push({ path: `${at}.check.model`, message: "use demo/<name>, openai/<model>, anthropic/<model> or openai-compatible/<provider>/<model> (or leave it empty for the demo judge)" });
        return;
      case "json_schema": {
        const size = JSON.stringify(check.schema).length;
        if (size > MAX_OUTPUT_SCHEMA_BYTES) issues.push({ path: `${at}.check.schema`, message: `the schema is ${Math.ceil(size / 1024)} KB; at most ${MAX_OUTPUT_SCHEMA_BYTES / 1024} KB` });
        else for (const problem of jsonSchemaProblems(check.schema)) issues.push({ path: `${at}.check.schema`, message: `not a valid JSON Schema: ${problem}` });
        return;
      }
      case "custom": {
        const problem = customCheckNameProblem(check.check);
        if (problem) issues.push({ path: `${at}.check.check`, message: problem });
        return;
      }
      case "deny_list":
      case "pii":
      case "max_length":
        return;
    }
  });
  return issues;
}
