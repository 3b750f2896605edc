// The tape's storage: a run_tapes row and its entries, each indexed for the
// lookup the engine makes at every model and tool call of a taped run. Loaded
// by the worker (plain Node): no `server-only` here.
import { createHash, randomUUID } from "node:crypto";
import type { Db } from "../../db/prisma";
import { writeTransaction } from "../../db/transactions";
import { ValidationError, zodIssues } from "../../errors";
import { canonicalJson } from "../paths";
import {
  MAX_TAPE_ENTRIES,
  tapeEntriesSchema,
  tapeSettingsSchema,
  type RecordedDecision,
  type RecordedModelResponse,
  type TapeEdit,
  type TapeEntry,
  type TapePath,
  type TapeSettings,
} from "../schemas";

export type TapePurpose = "fork" | "experiment";

/** Rows per insert: well under SQLite's bound-variable limit (10 columns a row). */
const CHUNK = 500;

/** The key equal arguments share: SHA-256 of their canonical JSON (the model's key order does not matter). */
export function argumentsKey(args: unknown): string {
  return createHash("sha256").update(canonicalJson(args)).digest("hex");
}

/** The indexed columns of an entry (the whole entry is kept as JSON beside them). */
function columnsOf(entry: TapeEntry): { kind: string; path: string; iteration: number; callId: string; tool: string; argsKey: string } {
  switch (entry.kind) {
    case "model":
      return { kind: "model", path: entry.path, iteration: entry.iteration, callId: "", tool: "", argsKey: "" };
    case "tool_at":
      return { kind: "tool_at", path: entry.path, iteration: entry.iteration, callId: entry.callId, tool: entry.tool, argsKey: "" };
    case "tool_call":
      return { kind: "tool_call", path: "", iteration: -1, callId: "", tool: entry.tool, argsKey: argumentsKey(entry.arguments) };
    case "tool_stub":
      return { kind: "tool_stub", path: "", iteration: -1, callId: "", tool: entry.tool, argsKey: "" };
  }
}

/** Stores a tape (validated: at most MAX_TAPE_ENTRIES entries of the contract's shapes); its id goes in AgentRunInput.tape. */
export async function createTape(db: Db, input: { purpose: TapePurpose; entries: TapeEntry[]; settings: TapeSettings; /** A chosen id (an idempotent start): a tape stored under it already is kept as it is. */ tapeId?: string }): Promise<{ tapeId: string }> {
  if (input.entries.length > MAX_TAPE_ENTRIES) {
    throw new ValidationError([{ path: "entries", message: `a tape holds at most ${MAX_TAPE_ENTRIES.toLocaleString("en")} entries (got ${input.entries.length.toLocaleString("en")})` }]);
  }
  const entries = tapeEntriesSchema.safeParse(input.entries);
  if (!entries.success) throw new ValidationError(zodIssues(entries.error.issues).map((i) => ({ ...i, path: `entries${i.path.startsWith("[") ? "" : "."}${i.path}` })), "The tape is invalid");
  const settings = tapeSettingsSchema.safeParse(input.settings);
  if (!settings.success) throw new ValidationError(zodIssues(settings.error.issues), "The tape's settings are invalid");
  const tapeId = input.tapeId ?? `tape_${randomUUID()}`;
  if (input.tapeId && (await db.runTape.findUnique({ where: { id: input.tapeId }, select: { id: true } }))) return { tapeId };
  const rows = entries.data.map((entry, seq) => ({ tapeId, seq, ...columnsOf(entry), data: JSON.stringify(entry) }));
  await writeTransaction(db, async (tx) => {
    await tx.runTape.create({ data: { id: tapeId, purpose: input.purpose, settings: JSON.stringify(settings.data), entryCount: rows.length } });
    for (let i = 0; i < rows.length; i += CHUNK) await tx.tapeEntry.createMany({ data: rows.slice(i, i + CHUNK) });
  });
  return { tapeId };
}

/** A tape's settings; null when there is no such tape. */
export async function readTapeSettings(db: Db, tapeId: string): Promise<TapeSettings | null> {
  const row = await db.runTape.findUnique({ where: { id: tapeId }, select: { settings: true } });
  return row ? tapeSettingsSchema.parse(JSON.parse(row.settings)) : null;
}

/** Every entry of a tape, in order (for reading a tape back: tests, the experiment's report). */
export async function readTapeEntries(db: Db, tapeId: string): Promise<TapeEntry[]> {
  const rows = await db.tapeEntry.findMany({ where: { tapeId }, orderBy: { seq: "asc" }, select: { data: true } });
  return tapeEntriesSchema.parse(rows.map((r) => JSON.parse(r.data) as unknown));
}

/** The model response on the tape at (path, iteration), with `edited` when someone wrote it (a fork's edit), or null. */
export async function findModelEntry(db: Db, tapeId: string, path: TapePath, iteration: number): Promise<{ response: RecordedModelResponse; edited?: TapeEdit } | null> {
  const row = await db.tapeEntry.findFirst({ where: { tapeId, kind: "model", path, iteration }, orderBy: { seq: "asc" }, select: { data: true } });
  if (!row) return null;
  const entry = JSON.parse(row.data) as TapeEntry;
  return entry.kind === "model" ? { response: entry.response, ...(entry.edited ? { edited: entry.edited } : {}) } : null;
}

export interface ToolLookup {
  tool: string;
  /** The call's arguments as the model wrote them (JSON text; invalid JSON matches no tool_call entry). */
  rawArguments: string;
  path: TapePath;
  iteration: number;
  callId: string;
  /** Who claims a tool_call entry: `<runId>:<iteration>:<callId>`; the same key re-reads its own claim (a retried activity). */
  claimKey: string;
}

export interface RecordedToolResult {
  /** Which kind of entry answered. */
  source: "tool_at" | "tool_call" | "tool_stub";
  outcome: "ok" | "error" | "rejected";
  result: string;
  approval?: RecordedDecision;
  /** Written, not recorded (a fork's edited result): who and when. */
  edited?: TapeEdit;
}

function parsedArguments(raw: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}

const CLAIM_ATTEMPTS = 20;

/**
 * The tape's answer for a tool call, in the contract's order: the entry
 * recorded at this very place for this very tool (tool_at), else the first unclaimed entry of this
 * tool with equal arguments (tool_call, claimed for this call with a
 * conditional update, so two parallel calls never take one entry and a retry
 * gets the entry it claimed before), else the tool's stub; null when nothing
 * matches.
 */
export async function findToolEntry(db: Db, tapeId: string, call: ToolLookup): Promise<RecordedToolResult | null> {
  // The tool too, not only the place: a model that calls another tool where the recording called X (an edited
  // prompt, another model) must not be handed X's result. (The index on path, iteration and call id finds the row.)
  const at = await db.tapeEntry.findFirst({ where: { tapeId, kind: "tool_at", path: call.path, iteration: call.iteration, callId: call.callId, tool: call.tool }, orderBy: { seq: "asc" }, select: { data: true } });
  if (at) {
    const entry = JSON.parse(at.data) as TapeEntry;
    if (entry.kind === "tool_at") return { source: "tool_at", outcome: entry.outcome, result: entry.result, ...(entry.approval ? { approval: entry.approval } : {}), ...(entry.edited ? { edited: entry.edited } : {}) };
  }
  const args = parsedArguments(call.rawArguments);
  if (args.ok) {
    const argsKey = argumentsKey(args.value);
    const taken = await db.tapeEntry.findFirst({ where: { tapeId, kind: "tool_call", tool: call.tool, argsKey, claimedBy: call.claimKey }, select: { data: true } });
    const claimed = taken ?? (await claimToolCall(db, tapeId, call.tool, argsKey, call.claimKey));
    if (claimed) {
      const entry = JSON.parse(claimed.data) as TapeEntry;
      if (entry.kind === "tool_call") return { source: "tool_call", outcome: entry.outcome, result: entry.result, ...(entry.approval ? { approval: entry.approval } : {}) };
    }
  }
  const stub = await db.tapeEntry.findFirst({ where: { tapeId, kind: "tool_stub", tool: call.tool }, orderBy: { seq: "asc" }, select: { data: true } });
  if (stub) {
    const entry = JSON.parse(stub.data) as TapeEntry;
    if (entry.kind === "tool_stub") return { source: "tool_stub", outcome: "ok", result: entry.result };
  }
  return null;
}

/** Claims the first free tool_call entry for (tool, argsKey): a conditional update that only one caller wins; the loser tries the next. */
async function claimToolCall(db: Db, tapeId: string, tool: string, argsKey: string, claimKey: string): Promise<{ data: string } | null> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const free = await db.tapeEntry.findFirst({ where: { tapeId, kind: "tool_call", tool, argsKey, claimedBy: null }, orderBy: { seq: "asc" }, select: { seq: true, data: true } });
    if (!free) return null;
    const { count } = await db.tapeEntry.updateMany({ where: { tapeId, seq: free.seq, claimedBy: null }, data: { claimedBy: claimKey } });
    if (count === 1) return { data: free.data };
  }
  return null;
}
