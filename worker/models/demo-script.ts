// The demo model's script language. A user (or parent agent) message may hold
// directives, one step per line; actions joined by " && " run in parallel:
//
//   tool calculator {"expression": "6*7"} && tool current_time {}
//   message billing: What is the refund policy?
//   reply billing: And for digital goods?
//   repeat 3 tool search_notes {"query": "temporal"}
//   answer: All done.
//   think 200        (simulated latency per inference, ms)
//   tokens 500       (output tokens reported per inference)
//   stream 150       (the answer streams a few words per 150 ms; see demo-stream.ts)
//   fail model       (a non-retryable model error)
//   flaky 2          (the first 2 attempts of each inference fail, then succeed)
//   fail model once  (after its tool steps, the agent's answer fails with a non-retryable
//                    model error the first time this worker sees this agent and task; a
//                    retried plan node, a new run with the same task, then answers)
//
// Orchestration (issue 16); these end the agent's turn, after its tool steps:
//
//   route billing 0.9 [fallback general]
//                    a router's decision: `return` {target, confidence, reason: "demo route", fallback?}.
//                    Only routers read it (other agents ignore the line). After a reroute prompt
//                    the first route line whose target is still on offer is used.
//   return {"answer": "x"}
//                    a `return` call with this text as its arguments, verbatim (invalid JSON too)
//   invalid 2        the agent's first 2 answers break its schema (`return` with {} or a wrong
//                    type); counted by the repair prompts since the task, then it answers validly
//   handoff billing: the customer wants a refund
//                    a `handoff` call {agent, reason} (ignored by the agent it names)
//   rewritten: A new answer.
//                    the answer once a guardrail asked for a rewrite (its rewrite prompt since the task)
//   fail: no such invoice
//                    a `fail` call {reason}: the agent gives up (unlike `fail model`, a model error)
//
// Without an answer, route, return, handoff or fail line, an agent that holds
// `return` ends with a value synthesised from its schema (demo-output.ts).
//
//   @technical: fail model
//                    any directive prefixed with @<agent>: applies to that agent only
//
// A message without directives is plain English (demo-planner.ts plans it);
// lines that are not directives are its plain-English part (`prose`).

export type DemoAction =
  | { kind: "tool"; name: string; rawArguments: string }
  | { kind: "message"; agent: string; text: string }
  | { kind: "reply"; agent: string; text: string };

export interface DemoRoute {
  target: string;
  confidence: number;
  fallback: string | null;
}

export interface DemoScript {
  steps: DemoAction[][];
  answer: string | null;
  /** The answer after an output guardrail asked for a rewrite (`rewritten:`), null to answer as before. */
  rewrittenAnswer: string | null;
  thinkMs: number;
  outputTokens: number | null;
  /** Pause between streamed pieces of the answer (`stream <ms>`), null for the default pace. */
  streamPaceMs: number | null;
  failModel: boolean;
  /** After its steps, fail the answer once per worker process for this agent and task. */
  failModelOnce: boolean;
  flakyAttempts: number;
  /** Routing decisions, in order (route lines; only routers act on them, so they do not count as directives). */
  routes: DemoRoute[];
  /** Raw arguments of a scripted `return` call. */
  returnArguments: string | null;
  /** How many of the agent's answers break its schema before it answers validly. */
  invalidAnswers: number;
  handoff: { agent: string; reason: string } | null;
  /** The reason of a scripted `fail` call. */
  failReason: string | null;
  hasDirectives: boolean;
  /** The lines that are not directives (for plain-English planning and routing). */
  prose: string;
}

/** A script with nothing in it. */
export function emptyScript(): DemoScript {
  return { steps: [], answer: null, rewrittenAnswer: null, thinkMs: 0, outputTokens: null, streamPaceMs: null, failModel: false, failModelOnce: false, flakyAttempts: 0, routes: [], returnArguments: null, invalidAnswers: 0, handoff: null, failReason: null, hasDirectives: false, prose: "" };
}

const NAME = "[A-Za-z0-9_-]+";

function parseAction(text: string): DemoAction | null {
  const tool = /^tool\s+([A-Za-z0-9_.-]+)\s*(.*)$/is.exec(text);
  if (tool) {
    const rest = (tool[2] ?? "").trim();
    return { kind: "tool", name: tool[1] ?? "", rawArguments: rest.startsWith("raw:") ? rest.slice(4) : rest || "{}" };
  }
  const talk = new RegExp(`^(message|reply)\\s+(${NAME})\\s*:\\s*(.*)$`, "is").exec(text);
  if (talk) return { kind: talk[1]?.toLowerCase() === "reply" ? "reply" : "message", agent: talk[2] ?? "", text: (talk[3] ?? "").trim() };
  return null;
}

const ROUTE_LINE = new RegExp(`^route\\s+(${NAME})\\s+(\\d*\\.?\\d+)(?:\\s+fallback\\s+(${NAME}))?$`, "i");
const HANDOFF_LINE = new RegExp(`^handoff\\s+(${NAME})\\s*:\\s*(.*)$`, "is");
const SCOPED_LINE = new RegExp(`^@(${NAME})\\s*:\\s*(.*)$`, "s");

/** Reads one directive line into `script`; false when the line is not a directive (or not one this agent acts on). */
function readDirective(line: string, script: DemoScript, agentName: string | undefined): boolean {
  let match: RegExpExecArray | null;
  if ((match = /^answer\s*:\s*(.*)$/is.exec(line))) script.answer = match[1] ?? "";
  else if ((match = /^rewritten\s*:\s*(.*)$/is.exec(line))) script.rewrittenAnswer = match[1] ?? "";
  else if ((match = /^think\s+(\d+)$/i.exec(line))) script.thinkMs = Number(match[1]);
  else if ((match = /^tokens\s+(\d+)$/i.exec(line))) script.outputTokens = Number(match[1]);
  else if ((match = /^stream\s+(\d+)$/i.exec(line))) script.streamPaceMs = Number(match[1]);
  else if (/^fail\s+model$/i.test(line)) script.failModel = true;
  else if (/^fail\s+model\s+once$/i.test(line)) script.failModelOnce = true;
  else if ((match = /^fail\s*:\s*(.*)$/is.exec(line))) script.failReason = (match[1] ?? "").trim();
  else if ((match = /^flaky\s+(\d+)$/i.exec(line))) script.flakyAttempts = Number(match[1]);
  else if ((match = /^invalid\s+(\d+)$/i.exec(line))) script.invalidAnswers = Number(match[1]);
  else if ((match = /^return\s+(raw:.*|[{[].*)$/is.exec(line))) {
    const raw = match[1] ?? "";
    script.returnArguments = raw.startsWith("raw:") ? raw.slice(4) : raw;
  } else if ((match = ROUTE_LINE.exec(line))) {
    script.routes.push({ target: match[1] ?? "", confidence: Number(match[2]), fallback: match[3] ?? null });
    return false;
  } else if ((match = HANDOFF_LINE.exec(line))) {
    // The receiving agent reads the same task: a handoff to itself is someone else's line.
    if (match[1] === agentName) return false;
    script.handoff = { agent: match[1] ?? "", reason: (match[2] ?? "").trim() };
  } else if ((match = /^repeat\s+(\d+)\s+(.*)$/is.exec(line))) {
    const action = parseAction(match[2] ?? "");
    if (!action) return false;
    for (let i = 0; i < Number(match[1]); i++) script.steps.push([action]);
  } else {
    const actions = line.split(" && ").map((part) => parseAction(part.trim()));
    if (actions.length === 0 || !actions.every((a): a is DemoAction => a !== null)) return false;
    script.steps.push(actions);
  }
  return true;
}

/** Whether a line is directive syntax (whether or not this agent acts on it): such lines are never prose. */
function looksLikeDirective(line: string): boolean {
  return ROUTE_LINE.test(line) || HANDOFF_LINE.test(line) || /^repeat\s+\d+\s/i.test(line);
}

/** Parses the directives in a message, as `agentName` reads them (lines scoped to other agents are skipped). */
export function parseDemoScript(message: string, agentName?: string): DemoScript {
  const script = emptyScript();
  const prose: string[] = [];
  for (const rawLine of message.split("\n")) {
    let line = rawLine.trim();
    if (!line) continue;
    const scoped = SCOPED_LINE.exec(line);
    if (scoped) {
      if (scoped[1] !== agentName) continue;
      line = (scoped[2] ?? "").trim();
    }
    if (readDirective(line, script, agentName)) script.hasDirectives = true;
    else if (!looksLikeDirective(line)) prose.push(line);
  }
  script.prose = prose.join("\n");
  return script;
}
