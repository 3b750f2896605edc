// The fork operation's input (browser-safe): which step of which run, and what
// to change there. A fork starts the origin's task again on a saved version,
// reusing every recorded step that ended before the chosen one (lib/forks/build-tape.ts).
import { z } from "zod";
import { runIdSchema } from "../contract/schemas";
import { agentNameSchema, modelIdSchema } from "../agents/schemas";

/** Results and outputs are JSON or text of up to 200,000 characters (a tool result the model reads). */
export const EDIT_MAX_CHARS = 200_000;

export const forkRunSchema = z
  .object({
    /** The run holding the step (the root run or any run below it). */
    runId: runIdSchema,
    /** The step: a span id of that run (`s12`). */
    spanId: z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/, "not a span id"),
    /** The saved version the fork runs (default: the origin's). */
    version: z.number().int().positive().optional(),
    /** Every agent of the fork runs on this model (default: the version's). */
    model: modelIdSchema.optional(),
    /** A new system prompt for one agent of the graph. */
    prompt: z.object({ agent: agentNameSchema, systemPrompt: z.string().min(1, "write a prompt").max(20_000, "keep the prompt under 20,000 characters") }).strict().optional(),
    /** For a tool step: the result the fork's step gets instead of running the tool. */
    editedToolResult: z.string().max(EDIT_MAX_CHARS, `keep the result under ${EDIT_MAX_CHARS.toLocaleString("en")} characters`).optional(),
    /** For a model step: the text the model "answers" there instead (its tool calls are dropped: the step is a final answer). */
    editedModelOutput: z.string().max(EDIT_MAX_CHARS, `keep the output under ${EDIT_MAX_CHARS.toLocaleString("en")} characters`).optional(),
  })
  .strict();

export type ForkRunInput = z.infer<typeof forkRunSchema>;

export interface ForkRunResult {
  runId: string;
  tapeId: string;
  /** Steps the fork reuses from the origin's recording (model responses and tool results); an edited step is not one. */
  replayedSteps: number;
  /** Where to compare the fork with its origin. */
  compareUrl: string;
}

/**
 * What a fork's run row says about edits (`runs.fork_edit`, JSON): which step was written rather than
 * recorded, what was written, by whom and when. A fork of a fork that carries an edit carries its mark
 * too (`inherited`). Its history is not a recording: datasets refuse it, the inbox card says so.
 */
export const forkEditSchema = z
  .object({
    kind: z.enum(["tool_result", "model_output"]),
    /** "tool calculator", "inference demo/main". */
    step: z.string().max(300),
    runId: z.string().max(300).optional(),
    spanId: z.string().max(100).optional(),
    by: z.string().max(500),
    at: z.string().max(40),
    /** The edit was made in an earlier fork this one was forked from. */
    inherited: z.boolean().optional(),
  })
  .strict();

export type ForkEdit = z.infer<typeof forkEditSchema>;

/** The row's fork edit, or null (none, or a value this version cannot read). */
export function parseForkEdit(text: string | null | undefined): ForkEdit | null {
  if (!text) return null;
  try {
    const parsed = forkEditSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** A fork of a run, as the origin's header lists it. */
export interface ForkSummary {
  runId: string;
  spanId: string | null;
  /** The sub-run holding the fork's step, when the fork was made from a step below this run. */
  inRun?: string;
  status: string;
  startedAt: string;
  startedBy: string | null;
}

export const forkOptionsInputSchema = z.object({ runId: runIdSchema, spanId: forkRunSchema.shape.spanId }).strict();

/** What the fork dialog offers for one step. */
export interface ForkOptions {
  runId: string;
  spanId: string;
  span: { kind: string; name: string };
  /** The saved graph the run's tree executes (null: an inline graph, which cannot be forked). */
  graphName: string | null;
  /** The agent of the run holding the step (whose prompt the dialog edits). */
  agentName: string;
  /** Newest first; `isOrigin` marks the version the origin ran; `agent` is that agent in each version. */
  /** `draft`: a draft version (saved from the playground), offered when chosen, never preselected. */
  versions: { version: number; note: string; isOrigin: boolean; draft: boolean; agent: { name: string; model: string; systemPrompt: string } | null }[];
  /** The step's recorded tool result or model output, to start an edit from. */
  recorded: string | null;
}

/** The run header's fork links: where this run was forked from, and its own forks. */
export interface ForkLinks {
  origin: { runId: string; rootRunId: string | null; spanId: string | null; spanName: string | null } | null;
  forks: ForkSummary[];
}
