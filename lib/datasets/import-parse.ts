// Parses a dataset import (CSV or JSONL) into item drafts, checking every line
// and naming each problem by line and column ("line 7: broken quotes", "line 12:
// context is not JSON"), so a user fixes the file in one pass. Pure (no I/O):
// the import operation, the unit tests and a preview share it.
import { parse as parseCsv } from "csv-parse/sync";
import type { CsvError } from "csv-parse";
import { z } from "zod";
import { tapeEntrySchema } from "../tapes/schemas";
import { datasetItemExpectedSchema, datasetTagsSchema, expectedCallSchema, MAX_DATASET_ITEMS, type DatasetItem, type ImportFormat, type ImportProblem } from "./schemas";

/** An item before it is stored: no id or position yet. */
export type ItemDraft = Omit<DatasetItem, "id" | "position">;

export interface ParsedImport {
  items: ItemDraft[];
  /** Every problem found, in line order (at most MAX_PROBLEMS of them). */
  problems: ImportProblem[];
  /** Lines with a problem (may exceed problems.length when many lines fail). */
  invalidLines: number;
}

/** The columns (CSV) and keys (JSONL) an import understands; `task` is required. */
export const IMPORT_COLUMNS = ["task", "context", "expected_output", "expected_output_json", "expected_trajectory", "tags"] as const;
type Column = (typeof IMPORT_COLUMNS)[number];
const isColumn = (name: string): name is Column => (IMPORT_COLUMNS as readonly string[]).includes(name);

/** Problems listed in one answer; the rest are counted. */
export const MAX_PROBLEMS = 200;

const trajectorySchema = z.array(expectedCallSchema);
const contextSchema = z.record(z.string(), z.unknown());

class LineProblem extends Error {
  constructor(
    readonly column: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

function parseJsonText(text: string, column: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new LineProblem(column, "is not JSON");
  }
}

function zodMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  const at = issue?.path.length ? ` (at ${issue.path.join(".")})` : "";
  return `${issue?.message ?? "is not valid"}${at}`;
}

/** One flat row (CSV cells, or a JSONL object's values) as an item draft; throws LineProblem. */
function draftFromFields(fields: Partial<Record<Column, unknown>>, format: ImportFormat): ItemDraft {
  const task = typeof fields.task === "string" ? fields.task.trim() : "";
  if (!task) throw new LineProblem("task", "is required");
  if (task.length > 100_000) throw new LineProblem("task", "is over 100,000 characters");

  const contextValue = typeof fields.context === "string" ? (fields.context.trim() ? parseJsonText(fields.context, "context") : {}) : (fields.context ?? {});
  const context = contextSchema.safeParse(contextValue);
  if (!context.success) throw new LineProblem("context", "is not a JSON object");

  const expected: ItemDraft["expected"] = {};
  if (fields.expected_output !== undefined && fields.expected_output !== "" && fields.expected_output !== null) {
    if (typeof fields.expected_output !== "string") throw new LineProblem("expected_output", "is not text");
    expected.output = fields.expected_output;
  }
  if (fields.expected_output_json !== undefined && fields.expected_output_json !== "") {
    expected.outputData = typeof fields.expected_output_json === "string" && format === "csv" ? parseJsonText(fields.expected_output_json, "expected_output_json") : fields.expected_output_json;
  }
  if (fields.expected_trajectory !== undefined && fields.expected_trajectory !== "") {
    const raw = typeof fields.expected_trajectory === "string" ? parseJsonText(fields.expected_trajectory, "expected_trajectory") : fields.expected_trajectory;
    const trajectory = trajectorySchema.safeParse(raw);
    if (!trajectory.success) throw new LineProblem("expected_trajectory", `is not a list of { tool, arguments } calls: ${zodMessage(trajectory.error)}`);
    expected.trajectory = trajectory.data;
  }
  return { input: { task, context: context.data }, expected, tape: [], tags: parseTags(fields.tags), source: { import: format } };
}

/** Tags: a JSON list of strings, or comma-separated text. */
function parseTags(value: unknown): string[] {
  if (value === undefined || value === null || value === "") return [];
  let list: unknown = value;
  if (typeof value === "string") list = value.trim().startsWith("[") ? parseJsonText(value, "tags") : value.split(",");
  const tags = datasetTagsSchema.safeParse(Array.isArray(list) ? list.map((t) => (typeof t === "string" ? t.trim() : t)).filter((t) => t !== "") : list);
  if (!tags.success) throw new LineProblem("tags", `are not a list of tags: ${zodMessage(tags.error)}`);
  return [...new Set(tags.data)];
}

/** The whole-item shape of an export line ({ input, expected, tape, tags, source }), so an export imports back as it was. */
const exportedItemSchema = z.strictObject({
  input: z.strictObject({ task: z.string().trim().min(1, "task is required").max(100_000), context: contextSchema, images: z.array(z.unknown()).optional() }),
  expected: datasetItemExpectedSchema,
  tape: z.array(tapeEntrySchema).max(20_000),
  tags: datasetTagsSchema,
  source: z.strictObject({ runId: z.string().optional(), approvalId: z.string().optional(), import: z.enum(["csv", "jsonl"]).optional() }).optional(),
  id: z.string().optional(),
  position: z.number().optional(),
});

function draftFromJsonLine(text: string): ItemDraft {
  const value = parseJsonText(text, "");
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new LineProblem(undefined, "is not a JSON object");
  if ("input" in value) {
    const item = exportedItemSchema.safeParse(value);
    if (!item.success) {
      const issue = item.error.issues[0];
      throw new LineProblem(issue?.path.join(".") || undefined, issue?.message ?? "is not a dataset item");
    }
    // Images are references to stored attachments of this server; an imported file cannot vouch for them.
    const { task, context } = item.data.input;
    return { input: { task, context }, expected: item.data.expected, tape: item.data.tape, tags: item.data.tags, source: { import: "jsonl" } };
  }
  const unknown = Object.keys(value).filter((key) => !isColumn(key));
  if (unknown.length) throw new LineProblem(unknown[0], `is not a known key (use ${IMPORT_COLUMNS.join(", ")})`);
  return draftFromFields(value as Partial<Record<Column, unknown>>, "jsonl");
}

class Collector {
  readonly items: ItemDraft[] = [];
  readonly problems: ImportProblem[] = [];
  private readonly badLines = new Set<number>();

  problem(line: number, message: string, column?: string): void {
    if (this.badLines.has(line)) return;
    this.badLines.add(line);
    if (this.problems.length < MAX_PROBLEMS) this.problems.push({ line, ...(column ? { column } : {}), message });
  }

  draft(line: number, make: () => ItemDraft): void {
    try {
      this.items.push(make());
    } catch (error) {
      if (!(error instanceof LineProblem)) throw error;
      this.problem(line, error.message, error.column);
    }
  }

  result(): ParsedImport {
    this.problems.sort((a, b) => a.line - b.line);
    return { items: this.items, problems: this.problems, invalidLines: this.badLines.size };
  }
}

interface CsvRow {
  record: string[];
  /** The line the record starts on (1-based, in the whole file). */
  line: number;
}

const QUOTE_ERRORS = new Set(["CSV_INVALID_CLOSING_QUOTE", "CSV_QUOTE_NOT_CLOSED", "CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE"]);
/** After this many broken quotes the rest of the file is not checked (each one re-reads what follows it). */
const MAX_QUOTE_RESTARTS = 50;

/**
 * Records of the file from `fromLine` on, until the first broken quote: after
 * one, csv-parse's idea of what is quoted is wrong for the rest of the file
 * (a valid line below would be reported too), so the caller starts again on the
 * line after it.
 */
function csvSegment(text: string, offset: number, fromLine: number, out: Collector): { rows: CsvRow[]; restartLine: number | null } {
  const rows: CsvRow[] = [];
  let lastRecordEnd = fromLine - 1;
  let restartLine: number | null = null;
  const parsed = parseCsv(text.slice(offset), {
    info: true,
    raw: true,
    skip_empty_lines: true,
    skip_records_with_error: true,
    relax_column_count: true,
    on_skip: (error: CsvError | undefined) => {
      if (!error || restartLine !== null) return undefined;
      const detectedAt = (typeof error.lines === "number" ? error.lines : 1) + fromLine - 1;
      if (QUOTE_ERRORS.has(error.code)) {
        // The record started after the last good one; an unclosed quote is only noticed at the end of the file.
        const startLine = lastRecordEnd + 1;
        out.problem(startLine, "broken quotes");
        restartLine = error.code === "CSV_QUOTE_NOT_CLOSED" ? startLine + 1 : detectedAt + 1;
      } else out.problem(detectedAt, "cannot be read as CSV");
      return undefined;
    },
    on_record: (record, context) => {
      if (restartLine === null) lastRecordEnd = context.lines + fromLine - 1;
      return record;
    },
  }) as unknown as { record: string[]; raw: string; info: { lines: number } }[];
  for (const { record, raw, info } of parsed) {
    // info.lines is where the record ends; a quoted cell may span lines.
    const line = info.lines + fromLine - 1 - (raw.replace(/\n$/, "").match(/\n/g)?.length ?? 0);
    if (restartLine !== null && line >= restartLine - 1) break;
    rows.push({ record, line });
  }
  return { rows, restartLine };
}

function parseCsvImport(content: string): ParsedImport {
  const out = new Collector();
  // One record delimiter throughout: csv-parse fixes it from the first line, and files mix them.
  const text = content.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  const lineStarts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) lineStarts.push(i + 1);
  const rows: CsvRow[] = [];
  let fromLine: number | null = 1;
  for (let restarts = 0; fromLine !== null && fromLine <= lineStarts.length; restarts++) {
    if (restarts > MAX_QUOTE_RESTARTS) {
      out.problem(fromLine, `not checked: more than ${MAX_QUOTE_RESTARTS} lines with broken quotes above`);
      break;
    }
    const segment = csvSegment(text, lineStarts[fromLine - 1] ?? text.length, fromLine, out);
    rows.push(...segment.rows);
    fromLine = segment.restartLine;
  }
  const [header, ...records] = rows;
  if (!header) return out.result();
  if (header.line !== 1) return (out.problem(1, 'the first line must be the header (with a "task" column)'), out.result());
  const columns = header.record.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => !isColumn(name));
  if (unknown.length) {
    out.problem(1, `unknown column "${unknown[0]}" (use ${IMPORT_COLUMNS.join(", ")})`);
    return out.result();
  }
  if (!columns.includes("task")) {
    out.problem(1, 'the header has no "task" column');
    return out.result();
  }
  for (const { record, line } of records) {
    if (record.length !== columns.length) {
      out.problem(line, `has ${record.length} fields, the header has ${columns.length}`);
      continue;
    }
    const fields: Partial<Record<Column, unknown>> = {};
    columns.forEach((name, index) => {
      if (isColumn(name)) fields[name] = record[index];
    });
    out.draft(line, () => draftFromFields(fields, "csv"));
  }
  return out.result();
}

function parseJsonlImport(content: string): ParsedImport {
  const out = new Collector();
  const lines = content.replace(/^\uFEFF/, "").split(/\r?\n/);
  lines.forEach((text, index) => {
    if (text.trim()) out.draft(index + 1, () => draftFromJsonLine(text));
  });
  return out.result();
}

/** Parses an import; problems are listed, never thrown. */
export function parseImport(format: ImportFormat, content: string): ParsedImport {
  return format === "csv" ? parseCsvImport(content) : parseJsonlImport(content);
}

/** Why a number of items cannot make one version: none, or over the cap. Null when it can. */
export function itemCountProblem(count: number): string | null {
  if (count === 0) return "the dataset would have 0 items; add at least one";
  if (count > MAX_DATASET_ITEMS) return `the dataset would have ${count.toLocaleString("en-US")} items, over the limit of ${MAX_DATASET_ITEMS.toLocaleString("en-US")}`;
  return null;
}
