import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { AuditEventsTable } from "@/components/inbox/audit-events-table";
import { AuditTable } from "@/components/inbox/audit-table";
import type { AuditRow } from "@/lib/inbox/schemas";
import { auditedPlans } from "./audit-plan";

const proposed = {
  nodes: [
    { id: "flights", agent: "flight-researcher", objective: "Find flights", dependsOn: [] },
    { id: "days", agent: "itinerary-planner", objective: "Write the days", dependsOn: ["flights"] },
  ],
};
const edited = { nodes: [...proposed.nodes, { id: "museums", agent: "hotel-researcher", objective: "Find museums", dependsOn: [] }].map((n) => (n.id === "days" ? { ...n, dependsOn: ["flights", "museums"] } : n)) };
const text = (html: string) => html.replace(/<[^>]+>/g, "").replace(/&gt;/g, ">");

describe("a plan approval in the audit", () => {
  it("reads the two plans of a plan approval only", () => {
    expect(auditedPlans("plan", { plan: proposed }, { plan: edited })).toEqual({ proposed, edited });
    expect(auditedPlans("plan", { plan: proposed }, null)).toEqual({ proposed, edited: null });
    expect(auditedPlans("ledger_transfer", { plan: proposed }, null)).toBeNull();
    expect(auditedPlans("plan", { plan: "not a plan" }, null)).toBeNull();
  });

  it("shows an approver's edit as nodes and dependencies added, not as JSON", () => {
    const row: AuditRow = {
      id: "e1", approvalId: "a1", runId: "r1", tool: "plan", agent: "trip-planner", outcome: "approved", arguments: { plan: proposed }, editedArguments: { plan: edited },
      reason: null, decidedBy: "approver@zap.local", role: "approver", requestedAt: null, decidedAt: "2026-01-01T00:00:00.000Z", timeToDecideMs: null,
    };
    const html = renderToStaticMarkup(createElement(AuditTable, { rows: [row] }));
    expect(text(html)).toContain("Approved with edits: 1 node added, 1 dependency added");
    expect(text(html)).toContain("museums · hotel-researcher — Find museums");
    expect(text(html)).toContain("museums → days");
    expect(html).not.toContain("&quot;nodes&quot;");
  });

  it("shows it the same way among all events, with the other details as they are", () => {
    const html = renderToStaticMarkup(
      createElement(AuditEventsTable, {
        rows: [{ id: "e1", seq: 7, action: "approval.approved", actor: "approver@zap.local", target: "r1/a1", at: "2026-01-01T00:00:00.000Z", details: { tool: "plan", decidedBy: "approver@zap.local", arguments: { plan: proposed }, editedArguments: { plan: edited } } }],
      }),
    );
    expect(text(html)).toContain("Approved with edits: 1 node added, 1 dependency added");
    expect(html).toContain("&quot;decidedBy&quot;:&quot;approver@zap.local&quot;");
    expect(html).not.toContain("&quot;nodes&quot;");
  });
});
