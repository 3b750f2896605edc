import { describe, expect, it } from "vitest";
import type { RunEvent } from "../../contract/types";
import { treeSteps, type LedgerRun } from "./build-steps";
import { alignSteps } from "./align";
import { treeNormaliser } from "./normalise";
import { stepView } from "./wire";
import { EMPTY_PRICE_BOOK } from "../../pricing/price-book";

const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();
type Body = RunEvent extends infer E ? (E extends RunEvent ? Omit<E, "seq" | "at"> : never) : never;
const events = (...bodies: [number, Body][]): RunEvent[] => bodies.map(([s, body], i) => ({ ...body, seq: i + 1, at: at(s) }) as RunEvent);

/**
 * A triage run that asks billing through message_agent, as the engine records it: the tool's result names the
 * child run (its conversation), whose id is the root's plus a random suffix. `reply` is what billing answers.
 */
function triageTree(root: string, suffix: string, reply = "refunded", agent = "billing"): LedgerRun[] {
  const child = `${root}.${agent}-${suffix}`;
  const result = JSON.stringify({ conversation_id: child, agent_name: agent, response: reply, is_complete: true });
  return [
    {
      runId: root,
      parentRunId: null,
      agentName: "triage",
      startedAt: at(0),
      events: events(
        [0, { type: "run_started", agentName: "triage", task: "Refund A-1003", depth: 0 }],
        [1, { type: "tool_call_started", iteration: 1, callId: "c1", tool: "message_agent", arguments: JSON.stringify({ agent_name: agent, message: "refund A-1003" }) }],
        [5, { type: "tool_call_completed", iteration: 1, callId: "c1", tool: "message_agent", outcome: "ok", durationMs: 4, attempts: 1, result }],
        [6, { type: "tool_call_started", iteration: 2, callId: "c2", tool: "lookup_order", arguments: "{}" }],
        [7, { type: "tool_call_completed", iteration: 2, callId: "c2", tool: "lookup_order", outcome: "ok", durationMs: 1, attempts: 1, result: `{"order":"A-1003","checked_at":"${at(7)}","trace":"${suffix}-1111-4222-8333-444455556666"}` }],
        [8, { type: "run_completed", output: `done for ${root}` }],
      ),
      spans: [],
      assistantMessages: [],
    },
    {
      runId: child,
      parentRunId: root,
      agentName: agent,
      startedAt: at(2),
      events: events([2, { type: "run_started", agentName: agent, task: "refund A-1003", depth: 1 }], [4, { type: "run_completed", output: reply }]),
      spans: [],
      assistantMessages: [],
    },
  ];
}

const ROOT_A = "triage-0d5f2a8e-1b7c-4c1e-9a55-3f0e8e4b2a10";
const ROOT_B = "triage-7c1e44b0-96a2-4f0b-8d3e-b2c9e1f0a7d4";

describe("treeNormaliser", () => {
  it("names the tree's runs by their place, and takes out other UUIDs and ISO timestamps", () => {
    const normalise = treeNormaliser(
      new Map([
        [ROOT_A, ""],
        [`${ROOT_A}.billing-1a2b3c4d`, ".billing#1"],
      ]),
    );
    expect(normalise(`{"conversation_id":"${ROOT_A}.billing-1a2b3c4d"} from ${ROOT_A}`)).toBe('{"conversation_id":"⟨run.billing#1⟩"} from ⟨run⟩');
    expect(normalise("at 2026-11-29T10:15:30.123Z, id 4f9c2d1e-0a1b-4c2d-8e3f-5a6b7c8d9e0f")).toBe("at ⟨time⟩, id ⟨id⟩");
    expect(normalise("2026-11-29 10:15+01:00")).toBe("⟨time⟩");
    expect(normalise('{"local":"29/11/2026, 13:20:05"}'), "current_time's local time").toBe('{"local":"⟨time⟩"}');
    expect(normalise("due 29/11/2026, version 1.2.3"), "a date alone and a version stay").toBe("due 29/11/2026, version 1.2.3");
    expect(normalise("order A-1003 of 2026-11-29, 42 items"), "a date without a time and plain numbers stay").toBe("order A-1003 of 2026-11-29, 42 items");
  });

  it("leaves short run ids alone: they are no generated ids and may be words", () => {
    expect(treeNormaliser(new Map([["r", ""]]))("a run of r")).toBe("a run of r");
  });
});

describe("comparing two runs that differ only in generated ids and timestamps", () => {
  it("reports no difference: message_agent's child-run ids, a UUID and a timestamp in a result are not compared", () => {
    const a = treeSteps(triageTree(ROOT_A, "1a2b3c4d"), ROOT_A, EMPTY_PRICE_BOOK);
    const b = treeSteps(triageTree(ROOT_B, "9f8e7d6c"), ROOT_B, EMPTY_PRICE_BOOK);
    const aligned = alignSteps(a, b);
    expect(aligned.counts, "every step equal").toMatchObject({ changed: 0, onlyA: 0, onlyB: 0 });
    expect(aligned.firstDivergence).toBeNull();
    // The page still shows what was recorded: the ids are in the text sent, only the comparison ignores them.
    const result = a.find((s) => s.name === "message_agent")!;
    expect(stepView(result).fields.result).toContain(`${ROOT_A}.billing-1a2b3c4d`);
    expect(stepView(result)).not.toHaveProperty("norm");
  });

  it("still reports a different reply, and a reply from another sub-agent's conversation", () => {
    const other = alignSteps(treeSteps(triageTree(ROOT_A, "1a2b3c4d"), ROOT_A, EMPTY_PRICE_BOOK), treeSteps(triageTree(ROOT_B, "9f8e7d6c", "refused"), ROOT_B, EMPTY_PRICE_BOOK));
    const changed = other.rows.filter((r) => r.status === "changed");
    expect(changed.map((r) => [other.a[r.a!]!.path, other.a[r.a!]!.kind, other.a[r.a!]!.name, r.changed])).toEqual([
      [".billing#1", "final", "", ["output"]],
      ["", "tool_call", "message_agent", ["result"]],
    ]);
    const elsewhere = alignSteps(treeSteps(triageTree(ROOT_A, "1a2b3c4d"), ROOT_A, EMPTY_PRICE_BOOK), treeSteps(triageTree(ROOT_B, "9f8e7d6c", "refunded", "refunds"), ROOT_B, EMPTY_PRICE_BOOK));
    expect(elsewhere.firstDivergence, "billing's conversation is not refunds'").not.toBeNull();
  });
});
