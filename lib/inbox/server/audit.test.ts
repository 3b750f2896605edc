import { describe, expect, it } from "vitest";
import { auditCsv, csvField, toAuditRow } from "./audit";

const event = {
  id: "approval:ap-1",
  action: "approval.approved",
  target: "treasurer-1/ap-1",
  createdAt: new Date("2026-11-22T10:00:30Z"),
  details: JSON.stringify({
    tool: "ledger_transfer",
    agent: "treasurer",
    decidedBy: "approver@zap.local",
    role: "approver",
    reason: 'ok, "fine"',
    arguments: { amount: 10 },
    editedArguments: { amount: 5 },
    requestedAt: "2026-11-22T10:00:00Z",
  }),
};

describe("approval audit", () => {
  it("turns an audit event into a row with the time to decide", () => {
    expect(toAuditRow(event)).toMatchObject({ approvalId: "ap-1", runId: "treasurer-1", outcome: "approved", decidedBy: "approver@zap.local", timeToDecideMs: 30_000, editedArguments: { amount: 5 } });
    expect(toAuditRow({ ...event, action: "run.cancelled" })).toBeNull();
  });

  it("quotes CSV fields and defuses spreadsheet formulas", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField('say "hi", then go')).toBe('"say ""hi"", then go"');
    expect(csvField("=HYPERLINK(1)")).toBe("'=HYPERLINK(1)");
  });

  it("exports the approved arguments as edited", () => {
    const row = toAuditRow(event);
    const [header, line] = auditCsv(row ? [row] : []).trimEnd().split("\r\n");
    expect(header).toContain("arguments_requested,arguments_approved");
    expect(line).toContain('"{""amount"":10}","{""amount"":5}"');
    expect(line).toContain(",30.0");
  });
});

describe("a plan edit in the CSV export", () => {
  const proposed = {
    nodes: [
      { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
      { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights"] },
    ],
  };
  const edited = {
    nodes: [
      { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
      { id: "museums", agent: "hotel-researcher", objective: "Find museums", dependsOn: [] },
      { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights", "museums"] },
    ],
  };
  const planEvent = (editedArguments: unknown) => ({
    ...event,
    details: JSON.stringify({ tool: "plan", agent: "trip-planner", decidedBy: "approver@zap.local", role: "approver", arguments: { plan: proposed }, editedArguments, requestedAt: "2026-11-22T10:00:00Z" }),
  });
  const planEditCell = (editedArguments: unknown) => {
    const row = toAuditRow(planEvent(editedArguments));
    const [header, line] = auditCsv(row ? [row] : []).trimEnd().split("\r\n");
    const columns = header?.split(",") ?? [];
    // The plan_edit cell is quoted (it holds commas), and no JSON precedes it in its column.
    return { columns, line: line ?? "" };
  };

  it("names each change of an edited plan, not two JSON blobs", () => {
    const { columns, line } = planEditCell({ plan: edited });
    expect(columns).toContain("plan_edit");
    expect(line).toContain('"1 node added, 1 dependency added: +node museums (hotel-researcher); +dependency museums -> days"');
  });

  it("leaves the cell empty for a plan approved as proposed", () => {
    const { line } = planEditCell(undefined);
    expect(line).not.toContain("node added");
  });
});
