import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import proto from "@temporalio/proto";
import { buildOf, patchMarkers, tally, type OpenExecution } from "./patch-census";

const { History } = proto.temporal.api.history.v1;
const FIXTURES = path.resolve(import.meta.dirname, "../engine-tests/fixtures");

/** A recorded release's executions, read as the census reads open ones. */
function releaseExecutions(file: string): OpenExecution[] {
  const fixture = JSON.parse(readFileSync(path.join(FIXTURES, file), "utf8")) as { histories: { workflowId: string; history: string }[] };
  return fixture.histories.map(({ workflowId, history }) => {
    const events = History.decode(Buffer.from(history, "base64")).events;
    return { workflowId, runId: "", type: "agentRunWorkflow", build: buildOf(events), patches: patchMarkers(events) };
  });
}

describe("patch census", () => {
  it("reads the patch markers a release recorded, and counts who lacks a later patch", () => {
    const executions = releaseExecutions("release-f58bed5.histories.json");
    const census = tally(executions);
    const row = (id: string) => census.perPatch.find((p) => p.id === id);
    // Every run of that release asked the ledger patches at its start …
    expect(row("ledger-carried-by-model-calls")).toMatchObject({ holding: executions.length, lacking: 0 });
    // … and none knew steps-in-history: those executions keep the local-activity path until they end.
    expect(row("steps-in-history")).toMatchObject({ holding: 0, lacking: executions.length });
    // One build wrote them all: an unversioned worker stamps the SDK's hash of its workflow bundle.
    expect([...census.perBuild.keys()]).toEqual([expect.stringMatching(/^@temporalio\/worker@1\.24\.0\+[0-9a-f]{64}$/)]);
  });

  it("tells an older release from a newer one by its markers", () => {
    const older = tally(releaseExecutions("release-d1ec196.histories.json"));
    const newer = tally(releaseExecutions("release-f58bed5.histories.json"));
    const lacking = (c: ReturnType<typeof tally>, id: string) => c.perPatch.find((p) => p.id === id)?.lacking;
    expect(lacking(older, "plan-scheduler")).toBe(older.executions.length);
    expect(lacking(newer, "plan-scheduler")).toBe(0);
  });
});
