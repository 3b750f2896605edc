// What "Save as draft" would save, said before it saves (issue 37 §2): the
// agent's settings a draft version holds (system prompt, model, temperature,
// output cap) compared with the version it is saved on top of, and what the
// playground changed that no version holds (the conversation's other messages,
// tools switched off). Pure, so the page's preview and the server's save
// (which refuses an edit that changes nothing) say the same.
import type { ChatMessage } from "../contract/types";
import { plural } from "../text/plural";

/** An agent's settings the playground edits, as a version holds them. */
export interface DraftSettings {
  systemPrompt: string;
  /** The agent's model as saved (`inherit` included). */
  model: string;
  temperature: number;
  maxOutputTokens: number;
}

/** The edit as sent: a field left out keeps the base's (an unchanged model is never sent). */
export interface DraftEdit {
  systemPrompt: string;
  model?: string;
  temperature: number;
  maxOutputTokens?: number;
}

export type DraftField = keyof DraftSettings;

export interface DraftChange {
  field: DraftField;
  /** The field in words. */
  label: string;
  before: string;
  after: string;
}

const LABELS: Record<DraftField, string> = { systemPrompt: "system prompt", model: "model", temperature: "temperature", maxOutputTokens: "max output tokens" };

/** The agent's settings once the edit is applied. */
export function applyDraft(base: DraftSettings, edit: DraftEdit): DraftSettings {
  return { systemPrompt: edit.systemPrompt, model: edit.model ?? base.model, temperature: edit.temperature, maxOutputTokens: edit.maxOutputTokens ?? base.maxOutputTokens };
}

/** What the draft would change of the base version's agent, field by field; empty: nothing to save. */
export function draftChanges(base: DraftSettings, edit: DraftEdit): DraftChange[] {
  const after = applyDraft(base, edit);
  return (Object.keys(LABELS) as DraftField[])
    .filter((field) => after[field] !== base[field])
    .map((field) => ({ field, label: LABELS[field], before: String(base[field]), after: String(after[field]) }));
}

/** The sentence for an edit that changes nothing of the agent. */
export function nothingToSaveMessage(agentName: string, baseVersion: number): string {
  return `Nothing to save: ${agentName}'s system prompt, model, temperature and output cap are those of v${baseVersion}. A version holds an agent's settings, not the conversation you edited.`;
}

/**
 * What the playground changed that a version does not hold, in sentences:
 * messages of the conversation edited, added or removed (the system prompt is
 * the agent's and is not counted), and tools switched off (an agent's tools are
 * set in the designer).
 */
export function notInDraft(original: readonly ChatMessage[], edited: readonly ChatMessage[], toolsOff: number): string[] {
  const conversation = (messages: readonly ChatMessage[]) => messages.filter((m) => m.role !== "system").map((m) => JSON.stringify(m));
  const before = conversation(original);
  const after = conversation(edited);
  const shared = Math.min(before.length, after.length);
  let changed = 0;
  for (let i = 0; i < shared; i++) if (before[i] !== after[i]) changed++;
  const notes: string[] = [];
  if (changed) notes.push(`${plural(changed, "edited message")} of the conversation`);
  if (after.length > before.length) notes.push(`${plural(after.length - before.length, "added message")}`);
  if (before.length > after.length) notes.push(`${plural(before.length - after.length, "removed message")}`);
  if (toolsOff) notes.push(`${plural(toolsOff, "tool")} switched off (an agent's tools are set in the designer)`);
  return notes;
}
