import { describe, expect, it } from "vitest";
import { alignSteps } from "./align";
import type { RunStep } from "./steps";

let seq = 0;
function step(kind: RunStep["kind"], name: string, fields: Record<string, string>, extra: Partial<RunStep> = {}): RunStep {
  seq++;
  return { kind, path: "", agent: "support", name, fields, group: null, runId: "r", spanId: null, seq, at: new Date(seq * 1000).toISOString(), tokens: null, cost: null, latencyMs: null, replayed: false, ...extra };
}
const task = (text: string) => step("task", "", { task: text });
const model = (text: string) => step("model_call", "", { model: "demo/scripted", text, toolCalls: "" });
const tool = (name: string, args: string, result = "ok", group: string | null = null) => step("tool_call", name, { arguments: args, outcome: "ok", result }, { group });
const final = (output: string) => step("final", "", { status: "completed", output });

const statuses = (a: RunStep[], b: RunStep[]) => alignSteps(a, b).rows.map((r) => r.status);

describe("alignSteps", () => {
  it("aligns identical runs as all equal, with no divergence", () => {
    const run = [task("t"), model("x"), tool("lookup", '{"id":1}'), final("done")];
    const result = alignSteps(run, run.map((s) => ({ ...s })));
    expect(result.rows.every((r) => r.status === "equal")).toBe(true);
    expect(result.firstDivergence).toBeNull();
    expect(result.counts).toEqual({ equal: 4, changed: 0, onlyA: 0, onlyB: 0 });
  });

  it("gives no rows for two empty runs, and only-in-B rows against an empty run", () => {
    expect(alignSteps([], [])).toMatchObject({ rows: [], firstDivergence: null, counts: { equal: 0, changed: 0, onlyA: 0, onlyB: 0 } });
    const one = alignSteps([], [task("t"), final("x")]);
    expect(one.rows.map((r) => r.status)).toEqual(["only_b", "only_b"]);
    expect(one.firstDivergence).toBe(0);
  });

  it("finds an inserted step and keeps the steps after it aligned", () => {
    const a = [task("t"), model("m1"), tool("lookup", "{}"), model("m2"), final("done")];
    const b = [task("t"), model("m1"), tool("lookup", "{}"), tool("transfer", '{"amount":5}'), model("m2"), final("done")];
    const result = alignSteps(a, b);
    expect(result.rows.map((r) => r.status)).toEqual(["equal", "equal", "equal", "only_b", "equal", "equal"]);
    expect(result.firstDivergence).toBe(3);
    expect(result.rows[3]).toMatchObject({ a: null, b: 3 });
    expect(result.rows[4]).toMatchObject({ a: 3, b: 4 });
  });

  it("pairs a step with its twin when an inserted step of the same kind comes before it", () => {
    const call = (text: string) => step("model_call", "", { model: "m", text: "", toolCalls: text });
    const a = [task("t"), call("calc(6*7)"), tool("calculator", "6*7"), call("time()"), tool("current_time", "{}"), final("done")];
    const b = [task("t"), call("calc(6*7)"), tool("calculator", "6*7"), call("calc(1+1)"), tool("calculator", "1+1"), call("time()"), tool("current_time", "{}"), final("done")];
    const result = alignSteps(a, b);
    expect(result.rows.map((r) => r.status)).toEqual(["equal", "equal", "equal", "only_b", "only_b", "equal", "equal", "equal"]);
    expect(result.rows[5]).toMatchObject({ a: 3, b: 5 });
    expect(result.counts).toEqual({ equal: 6, changed: 0, onlyA: 0, onlyB: 2 });
    // The same with A and B swapped: the removed block slides the same way.
    expect(alignSteps(b, a).rows.map((r) => r.status)).toEqual(["equal", "equal", "equal", "only_a", "only_a", "equal", "equal", "equal"]);
  });

  it("finds a deleted step", () => {
    const a = [task("t"), tool("lookup", "{}"), tool("transfer", "{}"), final("done")];
    const b = [task("t"), tool("lookup", "{}"), final("done")];
    const result = alignSteps(a, b);
    expect(result.rows.map((r) => r.status)).toEqual(["equal", "equal", "only_a", "equal"]);
    expect(result.counts).toEqual({ equal: 3, changed: 0, onlyA: 1, onlyB: 0 });
    expect(result.firstDivergence).toBe(2);
  });

  it("marks a tool call with other arguments as one changed row naming the field", () => {
    const a = [task("t"), tool("transfer", '{"amount":5}'), final("sent 5")];
    const b = [task("t"), tool("transfer", '{"amount":50}'), final("sent 50")];
    const result = alignSteps(a, b);
    expect(result.rows.map((r) => r.status)).toEqual(["equal", "changed", "changed"]);
    expect(result.rows[1]!.changed).toEqual(["arguments"]);
    expect(result.rows[2]!.changed).toEqual(["output"]);
    expect(result.firstDivergence).toBe(1);
  });

  it("aligns parallel tool calls that finished in another order call by call", () => {
    const a = [task("t"), tool("weather", '{"city":"Oslo"}', "rain", "r#1"), tool("calculator", '{"e":"1+1"}', "2", "r#1"), final("ok")];
    const b = [task("t"), tool("calculator", '{"e":"1+1"}', "2", "r#1"), tool("weather", '{"city":"Oslo"}', "rain", "r#1"), final("ok")];
    const result = alignSteps(a, b);
    expect(result.rows.map((r) => r.status)).toEqual(["equal", "equal", "equal", "equal"]);
    // The same tool twice in parallel with other arguments: paired by content, not by finishing order.
    const c = [tool("lookup", '{"id":1}', "one", "r#2"), tool("lookup", '{"id":2}', "two", "r#2")];
    const d = [tool("lookup", '{"id":2}', "two", "r#2"), tool("lookup", '{"id":1}', "one", "r#2")];
    expect(statuses(c, d)).toEqual(["equal", "equal"]);
  });

  it("does not reorder sequential calls: a swap of two sequential steps is a difference", () => {
    const a = [tool("weather", "{}"), tool("calculator", "{}")];
    const b = [tool("calculator", "{}"), tool("weather", "{}")];
    expect(statuses(a, b)).not.toEqual(["equal", "equal"]);
  });

  it("aligns steps of a sub-agent by their place in the tree", () => {
    const sub = (path: string, text: string) => step("model_call", "", { model: "m", text, toolCalls: "" }, { path });
    const a = [task("t"), sub(".billing#1", "x"), sub(".billing#1", "y"), final("f")];
    const b = [task("t"), sub(".billing#1", "x"), sub(".refunds#1", "y"), final("f")];
    expect(statuses(a, b)).toEqual(["equal", "equal", "only_a", "only_b", "equal"]);
  });

  it("aligns 5,000 against 5,000 steps with scattered differences", () => {
    const a: RunStep[] = [];
    const b: RunStep[] = [];
    for (let i = 0; i < 5000; i++) {
      const s = tool(`t${i % 7}`, `{"i":${i}}`);
      a.push(s);
      if (i % 500 === 250) b.push(tool("extra", "{}"));
      if (i % 1000 !== 999) b.push(i % 400 === 10 ? { ...s, fields: { ...s.fields, result: "other" } } : s);
    }
    const result = alignSteps(a, b);
    expect(result.counts.onlyB).toBe(10);
    expect(result.counts.onlyA).toBe(5);
    expect(result.counts.changed).toBe(13);
    expect(result.firstDivergence).toBe(10);
  });
});
