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
