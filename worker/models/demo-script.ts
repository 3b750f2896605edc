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
//   fail model       (a non-retryable model error)
//   flaky 2          (the first 2 attempts of each inference fail, then succeed)
//
// A message without directives gets a deterministic reply that echoes it.

export type DemoAction =
  | { kind: "tool"; name: string; rawArguments: string }
  | { kind: "message"; agent: string; text: string }
  | { kind: "reply"; agent: string; text: string };

export interface DemoScript {
  steps: DemoAction[][];
  answer: string | null;
  thinkMs: number;
  outputTokens: number | null;
  failModel: boolean;
  flakyAttempts: number;
  hasDirectives: boolean;
}

function parseAction(text: string): DemoAction | null {
  const tool = /^tool\s+([A-Za-z0-9_.-]+)\s*(.*)$/is.exec(text);
  if (tool) {
    const rest = (tool[2] ?? "").trim();
    return { kind: "tool", name: tool[1] ?? "", rawArguments: rest.startsWith("raw:") ? rest.slice(4) : rest || "{}" };
  }
  const talk = /^(message|reply)\s+([A-Za-z0-9_-]+)\s*:\s*(.*)$/is.exec(text);
  if (talk) return { kind: talk[1]?.toLowerCase() === "reply" ? "reply" : "message", agent: talk[2] ?? "", text: (talk[3] ?? "").trim() };
  return null;
}

/** Parses the directives in a message. */
export function parseDemoScript(message: string): DemoScript {
  const script: DemoScript = { steps: [], answer: null, thinkMs: 0, outputTokens: null, failModel: false, flakyAttempts: 0, hasDirectives: false };
  for (const rawLine of message.split("\n")) {
    const line = rawLine.trim();
    if (!line) continue;
    let match: RegExpExecArray | null;
    if ((match = /^answer\s*:\s*(.*)$/is.exec(line))) {
      script.answer = match[1] ?? "";
    } else if ((match = /^think\s+(\d+)$/i.exec(line))) {
      script.thinkMs = Number(match[1]);
    } else if ((match = /^tokens\s+(\d+)$/i.exec(line))) {
      script.outputTokens = Number(match[1]);
    } else if (/^fail\s+model$/i.test(line)) {
      script.failModel = true;
    } else if ((match = /^flaky\s+(\d+)$/i.exec(line))) {
      script.flakyAttempts = Number(match[1]);
    } else if ((match = /^repeat\s+(\d+)\s+(.*)$/is.exec(line))) {
      const action = parseAction(match[2] ?? "");
      if (!action) continue;
      for (let i = 0; i < Number(match[1]); i++) script.steps.push([action]);
    } else {
      const actions = line.split(" && ").map((part) => parseAction(part.trim()));
      if (actions.length > 0 && actions.every((a): a is DemoAction => a !== null)) script.steps.push(actions);
      else continue;
    }
    script.hasDirectives = true;
  }
  return script;
}
