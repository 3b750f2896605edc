import { describe, expect, it } from "vitest";
import { planNodeWork } from "./demo-node-work";

const node = (objective: string, task: string, deps: string[] = []) =>
  [`Objective: ${objective}`, `The user's task: ${task}`, ...(deps.length ? ["Results of the nodes this one depends on:", ...deps.map((d) => `- ${d} (${d}): found things`)] : [])].join("\n");

describe("planNodeWork", () => {
  it("is null for a message that is not a plan node's", () => {
    expect(planNodeWork("general", "What is the weather?")).toBeNull();
  });

  it("researches flights and hotels for the destination the task names", () => {
    const task = "Plan a 3-day trip to Paris in June from San Francisco";
    expect(planNodeWork("flight-researcher", node(`flight researcher: ${task}`, task))).toMatch(/^Flights to Paris: .*nonstop/);
    expect(planNodeWork("hotel-researcher", node(`hotel researcher: ${task}`, task))).toMatch(/^Hotels in Paris: /);
  });

  it("writes one line a day from its dependencies' results, naming them", () => {
    const task = "Plan a 4-day trip to Lisbon";
    const answer = planNodeWork("itinerary-planner", node(`itinerary planner: ${task}`, task, ["flight-researcher", "hotel-researcher"]));
    expect(answer?.split("\n")).toEqual([
      "Itinerary for 4 days in Lisbon:",
      expect.stringMatching(/^Day 1 — arrive/),
      expect.stringMatching(/^Day 2 — /),
      expect.stringMatching(/^Day 3 — /),
      "Day 4 — a last breakfast, then the flight home. Built on: flight-researcher, hotel-researcher.",
    ]);
  });

  it("reports any other objective in one sentence, with what it built on", () => {
    expect(planNodeWork("worker", node("part 3 of layer 1", "Do the work", ["l0n3"]))).toBe("worker finished “part 3 of layer 1”. It builds on l0n3.");
  });
});
