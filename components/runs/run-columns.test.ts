// The runs list's columns: a default that fits, the user's choice over it,
// and stored choices read defensively.
import { describe, expect, it } from "vitest";
import { parseColumnChoices, visibleColumns } from "./run-columns";

const none = { anyRouted: false, filters: new Set<string>() };

describe("run columns", () => {
  it("by default shows what fits, Routed to when something was routed, Started by when filtered by it", () => {
    expect(visibleColumns({}, none)).toEqual(["status", "version", "started", "duration", "usage"]);
    expect(visibleColumns({}, { anyRouted: true, filters: new Set() })).toContain("routedTo");
    expect(visibleColumns({}, { anyRouted: false, filters: new Set(["routedTo"]) })).toContain("routedTo");
    expect(visibleColumns({}, { anyRouted: false, filters: new Set(["startedBy"]) })).toContain("startedBy");
  });

  it("shows Score when a run on the page was scored or the list is filtered by a score, last", () => {
    expect(visibleColumns({}, { anyRouted: false, anyScored: true, filters: new Set() })).toEqual(["status", "version", "started", "duration", "usage", "score"]);
    expect(visibleColumns({}, { anyRouted: false, filters: new Set(["evaluator"]) })).toContain("score");
    expect(visibleColumns({}, { anyRouted: false, filters: new Set(["scoreBelow"]) })).toContain("score");
    expect(visibleColumns({ score: false }, { anyRouted: false, anyScored: true, filters: new Set() })).not.toContain("score");
  });

  it("follows the user's choice over the default, in the table's order", () => {
    expect(visibleColumns({ startedBy: true, version: false, usage: false }, none)).toEqual(["status", "startedBy", "started", "duration"]);
    expect(visibleColumns({ routedTo: false }, { anyRouted: true, filters: new Set() })).not.toContain("routedTo");
  });

  it("reads stored choices defensively", () => {
    expect(parseColumnChoices('{"version":false,"startedBy":true}')).toEqual({ version: false, startedBy: true });
    expect(parseColumnChoices('{"run":false,"bogus":true,"status":"no"}')).toEqual({});
    expect(parseColumnChoices("not json")).toEqual({});
    expect(parseColumnChoices("[1]")).toEqual({});
    expect(parseColumnChoices(null)).toEqual({});
  });
});
