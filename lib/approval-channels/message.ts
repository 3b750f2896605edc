// What an approval says on a channel outside Zap Studio (email now; the same
// facts for Slack): the run's identity, the call and its arguments, the rule
// that gated it, and links to the confirmation page. Pure functions: the
// worker sends what they return, the tests read it. Everything that came from
// a model or a user (arguments, names, reasons) is escaped for HTML and bounded
// in size; a link never decides anything: it opens a page where a signed-in
// person with the right role confirms (app/(dashboard)/approvals/[approvalId]).
import type { ApprovalNotification } from "../contract/workflow";
import type { ApprovalRequest } from "../contract/types";
import { guardrailHoldSentence } from "../contract/guardrail-approval";

/** The arguments shown in a message, at most this many characters (the page shows them all). */
export const ARGUMENTS_SHOWN_MAX_CHARS = 2000;

export interface RenderedMessage {
  subject: string;
  text: string;
  html: string;
}

/** A moment in UTC, to the second: a message is read in any zone, so it names its own. */
export function utcMoment(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? "—" : `${date.toISOString().slice(0, 19).replace("T", " ")} UTC`;
}

/** The approval's confirmation page; `decision` only preselects the button there. */
export function approvalLink(linkBase: string, approvalId: string, decision?: "approve" | "reject"): string {
  const url = new URL(`/approvals/${encodeURIComponent(approvalId)}`, `${linkBase}/`);
  if (decision) url.searchParams.set("decision", decision);
  return url.toString();
}

/** Arguments as indented JSON, cut at the bound with a note saying so. */
export function shownArguments(args: Record<string, unknown>): string {
  const json = JSON.stringify(args, null, 2) ?? "{}";
  if (json.length <= ARGUMENTS_SHOWN_MAX_CHARS) return json;
  return `${json.slice(0, ARGUMENTS_SHOWN_MAX_CHARS)}\n… (${json.length - ARGUMENTS_SHOWN_MAX_CHARS} more characters on the approval page)`;
}

/** The gating rule in words: who may decide, how many, until when, and what the deadline does. */
export function ruleWords(a: ApprovalRequest): string {
  const who = a.requiredRole ? `the ${a.requiredRole} role` : "an approver";
  const count = a.requiredApprovals > 1 ? `${a.requiredApprovals} different people with ${who}` : `one person with ${who}`;
  const self = a.allowSelfApproval ? "" : "; not the run's own starter, author or sender";
  const deadline = `at ${utcMoment(a.expiresAt)} it is ${a.onExpiry === "approve" ? "approved" : "rejected"} by default`;
  return `needs ${count}${self}; ${deadline}`;
}

/** Control characters out of a header line (a tool name comes from an MCP server). */
function oneLine(text: string, max = 200): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function escapeHtml(text: string): string {
  return text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

function facts(a: ApprovalRequest): [string, string][] {
  // A call a guardrail held says why, as the inbox's card does (the verdict quotes nothing it found).
  const held = guardrailHoldSentence(a);
  const rows: [string, string][] = [
    ["Run", a.rootRunId === a.runId ? a.runId : `${a.runId} (in run ${a.rootRunId})`],
    ["Agent", a.agentName],
    ["Tool", a.toolName],
    ["Started by", a.requestedBy ?? "—"],
    ["Requested", utcMoment(a.requestedAt)],
    ["Rule", ruleWords(a)],
  ];
  if (held) rows.push(["Guardrail", held]);
  return rows;
}

function htmlPage(title: string, rows: [string, string][], pre: string | null, footer: string): string {
  const table = rows.map(([k, v]) => `<tr><th align="left" style="padding-right:12px">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join("");
  const args = pre === null ? "" : `<p><strong>Arguments</strong></p><pre style="white-space:pre-wrap">${escapeHtml(pre)}</pre>`;
  return `<!doctype html><html><body><h2>${escapeHtml(title)}</h2><table>${table}</table>${args}${footer}</body></html>`;
}

/** The email asking for a decision, with Approve / Reject links to the confirmation page. */
export function requestEmail(a: ApprovalRequest, linkBase: string): RenderedMessage {
  const subject = oneLine(`Approval needed: ${a.toolName} (agent ${a.agentName}, run ${a.rootRunId})`);
  const approve = approvalLink(linkBase, a.id, "approve");
  const reject = approvalLink(linkBase, a.id, "reject");
  const args = shownArguments(a.arguments);
  const note = "Opening a link decides nothing: you sign in to Zap Studio and confirm there.";
  const text = [
    subject,
    "",
    ...facts(a).map(([k, v]) => `${k}: ${v}`),
    "",
    "Arguments:",
    args,
    "",
    `Approve: ${approve}`,
    `Reject: ${reject}`,
    "",
    note,
  ].join("\n");
  const footer = `<p><a href="${escapeHtml(approve)}">Approve</a> · <a href="${escapeHtml(reject)}">Reject</a></p><p>${escapeHtml(note)}</p>`;
  return { subject, text, html: htmlPage(subject, facts(a), args, footer) };
}

/** What happened to an approval, in one sentence: who decided and when, or the deadline's default action. */
export function outcomeSentence(n: ApprovalNotification): string {
  const a = n.approval;
  const d = a.decision;
  switch (n.event) {
    case "approval.approved":
      return `Approved by ${d?.decidedBy.email ?? "?"} at ${utcMoment(d?.decidedAt ?? n.at)}.`;
    case "approval.rejected":
      return `Rejected by ${d?.decidedBy.email ?? "?"} at ${utcMoment(d?.decidedAt ?? n.at)}${d?.reason ? `: ${d.reason}` : ""}.`;
    case "approval.expired":
      return `Nobody decided by the deadline: ${a.onExpiry === "approve" ? "approved" : "rejected"} by the rule's default action at ${utcMoment(n.at)}.`;
    case "approval.endorsed":
      return `Approved by ${a.endorsements.length} of ${a.requiredApprovals} at ${utcMoment(n.at)}.`;
    case "approval.requested":
      return `Waiting for a decision since ${utcMoment(a.requestedAt)}.`;
  }
}

/** The follow-up email once the approval is decided (anywhere) or expired. */
export function decisionEmail(n: ApprovalNotification, linkBase: string): RenderedMessage {
  const a = n.approval;
  const sentence = outcomeSentence(n);
  const subject = oneLine(`Decided: ${a.toolName} (agent ${a.agentName}, run ${a.rootRunId}) — ${sentence}`);
  const link = approvalLink(linkBase, a.id);
  const text = [sentence, "", ...facts(a).map(([k, v]) => `${k}: ${v}`), "", `Details: ${link}`].join("\n");
  const footer = `<p>${escapeHtml(sentence)}</p><p><a href="${escapeHtml(link)}">Details</a></p>`;
  return { subject, text, html: htmlPage(sentence, facts(a), null, footer) };
}

/** What a reminder or an escalation needs to know of a pending approval (its record in the ledger). */
export interface PendingFacts {
  id: string;
  runId: string;
  rootRunId: string;
  agentName: string;
  toolName: string;
  requestedAt: string;
  expiresAt: string;
}

/** A reminder (to the request's recipients) or an escalation (to the rule's escalateTo) of an approval still pending. */
export function nudgeMessage(kind: "reminder" | "escalation", a: PendingFacts, waitedMinutes: number, linkBase: string): RenderedMessage {
  const what = `${a.toolName} (agent ${a.agentName}, run ${a.rootRunId})`;
  const head = kind === "reminder" ? "Reminder: approval still needed" : "Escalated: approval still needed";
  const subject = oneLine(`${head}: ${what}`);
  const sentence = `${what} has waited ${waitedMinutes} minutes for a decision; at ${utcMoment(a.expiresAt)} the rule's default action applies.`;
  const link = approvalLink(linkBase, a.id);
  const text = [subject, "", sentence, "", `Decide: ${link}`, "", "Opening the link decides nothing: you sign in to Zap Studio and confirm there."].join("\n");
  const html = `<!doctype html><html><body><h2>${escapeHtml(subject)}</h2><p>${escapeHtml(sentence)}</p><p><a href="${escapeHtml(link)}">Decide in Zap Studio</a></p></body></html>`;
  return { subject, text, html };
}
