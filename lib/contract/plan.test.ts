import { describe, expect, it } from "vitest";
import { criticalPathLength, planProblems, sinkNodes, type Plan } from "./plan";

const node = (id: string, dependsOn: string[] = [], agent = "researcher") => ({ id, agent, objective: `do ${id}`, dependsOn });
const agents = ["researcher", "planner"];

describe("plan validation", () => {
  it("accepts the trip plan: two researchers in parallel, an itinerary after both", () => {
    const plan: Plan = { nodes: [node("flights"), node("hotels"), node("itinerary", ["flights", "hotels"], "planner")] };
    expect(planProblems(plan, agents, 50)).toEqual([]);
    expect(sinkNodes(plan).map((n) => n.id)).toEqual(["itinerary"]);
    expect(criticalPathLength(plan)).toBe(2);
  });

  it.each<[string, Plan, RegExp]>([
    ["empty plan", { nodes: [] }, /^nodes: the plan has no nodes$/],
    ["duplicate id", { nodes: [node("a"), node("a")] }, /^nodes\[1\]\.id: duplicate id "a" \(also nodes\[0\]\)$/],
    ["missing dependency", { nodes: [node("a", ["ghost"])] }, /^nodes\[0\]\.dependsOn\[0\]: no node has the id "ghost"$/],
    ["unknown agent", { nodes: [node("a", [], "wizard")] }, /^nodes\[0\]\.agent: unknown agent "wizard"/],
    ["self dependency", { nodes: [node("a", ["a"])] }, /^nodes\[0\]\.dependsOn\[0\]: "a" depends on itself$/],
    ["cycle, named", { nodes: [node("a", ["c"]), node("b", ["a"]), node("c", ["b"])] }, /^cycle: a → c → b → a$/],
    ["too many nodes", { nodes: [node("a"), node("b"), node("c")] }, /^nodes: the plan has 3 nodes; at most 2$/],
    ["bad id", { nodes: [node("no spaces")] }, /^nodes\[0\]\.id: use 1–64 letters/],
  ])("%s", (_label, plan, problem) => {
    expect(planProblems(plan, agents, 2)).toEqual(expect.arrayContaining([expect.stringMatching(problem)]));
  });

  it("validates a 1,000-node chain and a 1,000-node fan-in (no deep recursion), and names the cycle that closes the chain", () => {
    const chain: Plan = { nodes: Array.from({ length: 1000 }, (_, i) => node(`n${i}`, i ? [`n${i - 1}`] : [])) };
    expect(planProblems(chain, agents, 1000)).toEqual([]);
    expect(criticalPathLength(chain)).toBe(1000);
    const fan: Plan = { nodes: [...Array.from({ length: 999 }, (_, i) => node(`w${i}`)), node("sink", Array.from({ length: 999 }, (_, i) => `w${i}`))] };
    expect(planProblems(fan, agents, 1000)).toEqual([]);
    const closed: Plan = { nodes: chain.nodes.map((n, i) => (i === 0 ? { ...n, dependsOn: ["n999"] } : n)) };
    expect(planProblems(closed, agents, 1000).filter((p) => p.startsWith("cycle:"))).toHaveLength(1);
  });
});
