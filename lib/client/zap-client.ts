// The TypeScript client of Zap Studio's HTTP API, for programs (issue 23 §1):
// an API key, the run lifecycle (start, read, stream, wait, follow up, cancel),
// approvals and keys. Browser- and Node-safe: only `fetch`; the response types
// are the routes' own (imported as types, erased at run time).
//
//   const zap = new ZapClient({ baseUrl: "https://zap.example.com", apiKey: process.env.ZAP_API_KEY! });
//   const { runId } = await zap.startRun({ graph: "support-triage", task: "Where is my order?" });
//   for await (const event of zap.streamRun(runId)) console.log(event.type);
import type { ForkRunInput, ForkRunResult } from "../forks/schemas";
import { TERMINAL_STATUSES, type ApprovalRequest, type RunEvent } from "../contract/types";
import type { launchRunSchema, RunFilterSuggestions, RunFilters, RunListPage } from "../runs/schemas";
import type { ImageInput } from "../attachments/schemas";
import type { AuditEventFilter, AuditEventPage, DecidedCall, InboxItem } from "../inbox/schemas";
import type { ApiKeySummary } from "../api-keys/schemas";
import type { createViewSchema, SavedView, updateViewSchema } from "../views/schemas";
import type { MetricsDashboard, MetricsQueryInput } from "../metrics/schemas";
import type { RunTriggerQuery, RunTriggerSplit } from "../runs/triggers";
import type { AlertState, AlertView, MonitorCreateInput, MonitorPatch, MonitorView } from "../monitors/schemas";
import type { BackfillView, CreateEvaluatorInput, EvaluationView, EvaluatorView, UpdateEvaluatorInput } from "../online-eval/schemas";
import type { ScheduleCreateInput, SchedulePatch, ScheduleView } from "../schedules/schemas";
import type { SetSpendLimitRequest, SpendLimitView } from "../spend-limits/schemas";
import type { LabelChangeResult, LabelComparison, LabelList, LabelRequestStatus, LabelRequestView, Split } from "../labels/schemas";
import type { WebhookCreateInput, WebhookDeliveryView, WebhookPatch, WebhookView, WebhookWithSecret } from "../webhooks/schemas";
import type { EventPage, RunSummaryWithPlan } from "../run-ledger/read";
import type { ModelPriceEntry, ModelPriceList, SavedModelPrice, SetModelPriceInput } from "../pricing/schemas";
import type { ApprovalChannelField, ApprovalChannelsView, ApprovalChannelTestResult, SendApprovalChannelTestInput, UpdateApprovalChannelsInput } from "../approval-channels/schemas";
import type { CompareStepsPage, RunComparison } from "../runs/diff/schemas";
import type { SessionUser } from "../auth/server/session";
import type { addApprovalsToDatasetSchema, addRunsToDatasetSchema, ApprovalsAdded, createDatasetSchema, DatasetChange, DatasetDiff, DatasetItem, DatasetItemsPage, DatasetSummary, DatasetVersionSummary, DecidedApproval, importDatasetSchema, ImportProblem, updateDatasetItemSchema } from "../datasets/schemas";
import type { z } from "zod";
import { ApiError, Http, sleep, type HttpOptions } from "./http";
import { readSse } from "./sse";
import { eventPhrase } from "../runs/event-phrase";
import type { StreamedRunEvent, TokenFrame } from "../runs/stream-events";
import { accessEndOf, type AccessEnd } from "../runs/stream-end";
import type { ExperimentDetail, ExperimentSummary, StartExperimentInput } from "../experiments/schemas";
import type { PlaygroundCall, PlaygroundCallInput, PlaygroundDraftSaved, PlaygroundResult, SavePlaygroundDraftInput } from "../playground/schemas";
import type { VersionSummary } from "../agents/designer-schemas";
import type { FeedbackItem, FeedbackSet, SetFeedbackInput } from "../feedback/schemas";

export { ApiError, RateLimitedApiError } from "./http";
export type { RunEvent, EventPage, RunSummaryWithPlan as RunSummary };
export type { StreamedRunEvent, TokenFrame };
export type { ExperimentDetail, ExperimentSummary, StartExperimentInput };

/** `POST /api/runs`: the saved graph, the task, and optionally context, version, model and images. */
export type StartRunInput = z.input<typeof launchRunSchema>;

/** `POST /api/runs/:runId/approvals/:approvalId`: a rejection needs a reason; only an approval may edit the arguments. */
export interface DecisionInput {
  approved: boolean;
  reason?: string;
  /** The arguments the tool runs with instead of the model's (approvals only). */
  editedArguments?: Record<string, unknown>;
}

/** The caller as the server sees it: the key's owner, with the key's role (never above the owner's). */
export type Me = SessionUser & { apiKeyId?: string };

export interface StreamOptions {
  /** Events after this sequence number (default 0: from the start); resume a stream with the last `seq` seen. */
  since?: number;
  /** Stops the stream: the iterator returns without throwing. */
  signal?: AbortSignal;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Give up after this long (ApiError status 0, code "timeout"); default: wait as long as the run takes. */
  timeoutMs?: number;
}

/** How polling backs off while nothing happens: from the first delay, doubling up to the last. */
const POLL_MS = { first: 250, max: 2_000 } as const;

/** A stream ended because the caller may no longer read it (a 401, met mid-stream): `reason` says why, the message in a sentence. */
export class StreamAccessEnded extends ApiError {
  readonly reason: AccessEnd["reason"];
  constructor(end: AccessEnd) {
    super(401, "unauthenticated", end.message);
    this.name = "StreamAccessEnded";
    this.reason = end.reason;
  }
}

/** Consecutive transient failures (no answer, 502–504) a stream rides out before it throws. */
const STREAM_RETRIES = 5;

function isTransient(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status === 502 || error.status === 503 || error.status === 504);
}

/** A Zap Studio server, called with an API key. */
export class ZapClient {
  private readonly http: Http;

  constructor(options: HttpOptions) {
    this.http = new Http(options);
  }

  /** Who the key acts as: its owner, with the key's role. */
  async me(options: { signal?: AbortSignal } = {}): Promise<Me> {
    return (await this.http.call<{ user: Me }>("GET", "/api/me", options)).user;
  }

  /** Starts a run of a saved agent graph (needs a builder's role or higher): its run id. */
  startRun(input: StartRunInput, options: { signal?: AbortSignal } = {}): Promise<{ runId: string }> {
    return this.http.call("POST", "/api/runs", { body: input, signal: options.signal });
  }

  /** The run's summary: status, usage, output or error, the last event's sequence number. */
  async getRun(runId: string, options: { signal?: AbortSignal } = {}): Promise<RunSummaryWithPlan> {
    return (await this.http.call<{ run: RunSummaryWithPlan }>("GET", `/api/runs/${encodeURIComponent(runId)}`, options)).run;
  }

  /**
   * Run `a` and run `b` (of one graph) step by step (`GET /api/runs/compare`): the aligned rows
   * (equal / changed / only_a / only_b, with indices into each run's steps), the first divergence,
   * B − A deltas, and the steps of the rows around the first divergence (the others are null:
   * read them with compareSteps).
   */
  compareRuns(a: string, b: string, options: { signal?: AbortSignal } = {}): Promise<RunComparison> {
    return this.http.call("GET", "/api/runs/compare", { query: { a, b }, signal: options.signal });
  }

  /**
   * Steps [from, to) of a compared run (`GET /api/runs/compare/steps`, at most 500), indexed as
   * compareRuns indexes them; pass the comparison's `version` of that run to get a 409 instead of
   * other steps when the run has taken steps since.
   */
  compareSteps(runId: string, range: { from: number; to: number; version?: string }, options: { signal?: AbortSignal } = {}): Promise<CompareStepsPage> {
    return this.http.call("GET", "/api/runs/compare/steps", { query: { run: runId, from: range.from, to: range.to, ...(range.version ? { version: range.version } : {}) }, signal: options.signal });
  }

  /**
   * Top-level runs, one page at a time, filtered as the runs list is (status, graph, startedBy, …): newest first,
   * or by `sort` (started, duration, or the tree's tokens or cost) with `order` desc (largest first) or asc.
   */
  listRuns(filters: Partial<RunFilters> = {}, options: { signal?: AbortSignal } = {}): Promise<RunListPage> {
    return this.http.call("GET", "/api/runs/list", { query: { ...filters }, signal: options.signal });
  }

  /** What the runs list's filters suggest: saved graphs, and the models and tools some run used. */
  runFilterSuggestions(options: { signal?: AbortSignal } = {}): Promise<RunFilterSuggestions> {
    return this.http.call("GET", "/api/runs/suggestions", options);
  }

  /**
   * The overview dashboard's numbers (`GET /api/metrics`): every series (or
   * `series`) over a range (1h, 24h, 7d, 30d, or custom from/to), filtered by
   * graph, version, model, tool and startedBy, broken down by one of them.
   */
  metrics(query: MetricsQueryInput = {}, options: { signal?: AbortSignal } = {}): Promise<MetricsDashboard> {
    const { series, ...rest } = query;
    return this.http.call("GET", "/api/metrics", { query: { ...rest, series: series?.join(",") }, signal: options.signal });
  }

  /** The top-level runs started from `from` to `to` (ISO, both included), split by what started them (`GET /api/runs/triggers`). */
  runTriggers(query: RunTriggerQuery, options: { signal?: AbortSignal } = {}): Promise<RunTriggerSplit> {
    return this.http.call("GET", "/api/runs/triggers", { query: { ...query }, signal: options.signal });
  }

  /** One page of the run's events after sequence number `since`; ask again from `nextSince` while `hasMore`. */
  events(runId: string, since = 0, options: { limit?: number; maxBytes?: number; signal?: AbortSignal } = {}): Promise<EventPage> {
    const { signal, ...page } = options;
    return this.http.call("GET", `/api/runs/${encodeURIComponent(runId)}/events`, { query: { since, ...page }, signal });
  }

  /**
   * The run's events as they happen (`GET /api/runs/:runId/stream`, Server-Sent
   * Events), each with a `phrase`, until the run has ended and every event it
   * wrote has been yielded (a run that waits for an approval keeps the stream
   * open). With `tokens: true` it also yields `token` frames: a model call's
   * text as it is generated (place `delta` at `offset`; offset 0 starts the
   * text again). A dropped connection is resumed with Last-Event-ID, so nothing
   * comes twice; a few transient failures (no answer, 502–504) are ridden out.
   * A server without the stream route is polled through its events page.
   */
  streamRun(runId: string, options?: StreamOptions & { tokens?: false }): AsyncGenerator<StreamedRunEvent, void, undefined>;
  streamRun(runId: string, options: StreamOptions & { tokens: true }): AsyncGenerator<StreamedRunEvent | TokenFrame, void, undefined>;
  async *streamRun(runId: string, options: StreamOptions & { tokens?: boolean } = {}): AsyncGenerator<StreamedRunEvent | TokenFrame, void, undefined> {
    const { signal } = options;
    let since = options.since ?? 0;
    let delay: number = POLL_MS.first;
    let failures = 0;
    try {
      for (;;) {
        let response: Response;
        try {
          response = await this.http.openStream(`/api/runs/${encodeURIComponent(runId)}/stream`, { query: { since }, lastEventId: since > 0 ? String(since) : undefined, signal });
        } catch (error) {
          if (signal?.aborted) return;
          // Not the app's 404 (no envelope): a server from before the stream route.
          if (error instanceof ApiError && error.status === 404 && error.code === null) {
            for await (const event of this.pollRun(runId, { since, signal })) yield { ...event, phrase: eventPhrase(event) };
            return;
          }
          if (!isTransient(error) || ++failures > STREAM_RETRIES) throw error;
          await sleep(delay, signal);
          delay = Math.min(delay * 2, POLL_MS.max);
          continue;
        }
        let ended = false;
        try {
          for await (const message of readSse(response.body as ReadableStream<Uint8Array>)) {
            if (message.event === "end") {
              // The caller may no longer read (a revoked key, a disabled owner): say so rather than pass for a finished run.
              const access = accessEndOf(message.data);
              if (access) throw new StreamAccessEnded(access);
              ended = true;
              break;
            }
            if (message.event === "token") {
              if (options.tokens) yield JSON.parse(message.data) as TokenFrame;
              continue;
            }
            const event = JSON.parse(message.data) as StreamedRunEvent;
            since = event.seq;
            failures = 0;
            delay = POLL_MS.first;
            yield event;
          }
        } catch (error) {
          if (signal?.aborted) return;
          if (error instanceof StreamAccessEnded) throw error;
          // The connection broke mid-stream: resume after the last event, as a browser would.
          if (++failures > STREAM_RETRIES) throw error instanceof ApiError ? error : new ApiError(0, null, `The run stream broke: ${error instanceof Error ? error.message : String(error)}`);
        }
        if (ended) return;
        // Closed without `end` (a server restart, a sign-out): open it again after a pause.
        await sleep(delay, signal);
        delay = Math.min(delay * 2, POLL_MS.max);
      }
    } catch (error) {
      // Aborting is how a caller stops the stream: the iterator ends, it does not fail.
      if (signal?.aborted) return;
      throw error;
    }
  }

  /**
   * The run's events by polling its events page, backing off from 250 ms to 2 s
   * while nothing happens and asking only for events after the last one yielded.
   */
  private async *pollRun(runId: string, options: StreamOptions = {}): AsyncGenerator<RunEvent, void, undefined> {
    const { signal } = options;
    let since = options.since ?? 0;
    let delay: number = POLL_MS.first;
    let failures = 0;
    for (;;) {
      let page: EventPage;
      let ended = false;
      try {
        page = await this.events(runId, since, { signal });
        // Only an empty page asks whether the run ended, and only then may the stream stop: the summary's
        // lastEventSeq says whether events were written after the page was read.
        if (page.events.length === 0 && !page.hasMore) {
          const run = await this.getRun(runId, { signal });
          ended = TERMINAL_STATUSES.includes(run.status) && run.lastEventSeq <= since;
        }
        failures = 0;
      } catch (error) {
        if (signal?.aborted) return;
        if (!isTransient(error) || ++failures > STREAM_RETRIES) throw error;
        await sleep(delay, signal);
        delay = Math.min(delay * 2, POLL_MS.max);
        continue;
      }
      for (const event of page.events) {
        since = event.seq;
        yield event;
      }
      if (ended) return;
      if (page.hasMore) continue;
      if (page.events.length > 0) {
        delay = POLL_MS.first;
        continue;
      }
      await sleep(delay, signal);
      delay = Math.min(delay * 2, POLL_MS.max);
    }
  }

  /** Waits until the run ends (completed, failed or cancelled) and returns its summary. */
  async waitForRun(runId: string, options: WaitOptions = {}): Promise<RunSummaryWithPlan> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let delay: number = POLL_MS.first;
    for (;;) {
      const run = await this.getRun(runId, { signal: options.signal });
      if (TERMINAL_STATUSES.includes(run.status)) return run;
      if (Date.now() + delay > deadline) throw new ApiError(0, "timeout", `Run ${runId} had not ended after ${options.timeoutMs} ms (status ${run.status})`);
      await sleep(delay, options.signal);
      delay = Math.min(delay * 2, POLL_MS.max);
    }
  }

  /** Cancels the run and its sub-agent conversations (its starter or an admin). */
  cancelRun(runId: string, options: { signal?: AbortSignal } = {}): Promise<{ accepted: true }> {
    return this.http.call("POST", `/api/runs/${encodeURIComponent(runId)}/cancel`, options);
  }

  /**
   * Forks the run at one of its steps (`spanId`, a span of `runId`): the task starts again on `version`
   * (default the origin's), reusing every step that ended before this one; the step itself runs live, or
   * with `editedToolResult` / `editedModelOutput`. Builder role; audited as run.forked.
   */
  forkRun(
    runId: string,
    fork: Omit<ForkRunInput, "runId">,
    options: { signal?: AbortSignal } = {},
  ): Promise<ForkRunResult> {
    return this.http.call("POST", `/api/runs/${encodeURIComponent(runId)}/fork`, { body: fork, signal: options.signal });
  }

  /** Sends a follow-up message to the run (its starter or an admin), optionally with images. */
  sendMessage(runId: string, content: string, options: { images?: ImageInput[]; signal?: AbortSignal } = {}): Promise<{ accepted: true }> {
    const body = options.images?.length ? { content, images: options.images } : { content };
    return this.http.call("POST", `/api/runs/${encodeURIComponent(runId)}/messages`, { body, signal: options.signal });
  }

  /** Every pending approval across runs and sub-runs, oldest first, and the server's time. */
  listApprovals(options: { signal?: AbortSignal } = {}): Promise<{ approvals: InboxItem[]; serverTime: string }> {
    return this.http.call("GET", "/api/approvals", options);
  }

  /** Approves or rejects one call (approvers and admins): the approval as decided. */
  async decideApproval(runId: string, approvalId: string, decision: DecisionInput, options: { signal?: AbortSignal } = {}): Promise<ApprovalRequest> {
    const path = `/api/runs/${encodeURIComponent(runId)}/approvals/${encodeURIComponent(approvalId)}`;
    return (await this.http.call<{ approval: ApprovalRequest }>("POST", path, { body: decision, signal: options.signal })).approval;
  }

  /** A run's decided tool calls: who decided, when, and what the tool returned after the decision. */
  runDecisions(runId: string, options: { signal?: AbortSignal } = {}): Promise<DecidedCall[]> {
    return this.http.call("GET", `/api/runs/${encodeURIComponent(runId)}/decisions`, options);
  }

  /** The audit's every-event view, newest first, as this key's role may read it. */
  auditEvents(filter: Partial<AuditEventFilter> = {}, options: { signal?: AbortSignal } = {}): Promise<AuditEventPage> {
    const query = { ...filter, from: filter.from?.toISOString(), to: filter.to?.toISOString() };
    return this.http.call("GET", "/api/audit", { query, signal: options.signal });
  }

  /** The owner's keys (an admin's: every key), never a secret. Keys are created in the UI or with `npm run api-key`. */
  async listApiKeys(options: { signal?: AbortSignal } = {}): Promise<ApiKeySummary[]> {
    return (await this.http.call<{ keys: ApiKeySummary[] }>("GET", "/api/api-keys", options)).keys;
  }

  /** Revokes a key at once (the owner's own; an admin any): its next request gets 401. */
  revokeApiKey(id: string, options: { signal?: AbortSignal } = {}): Promise<ApiKeySummary> {
    return this.http.call("DELETE", `/api/api-keys/${encodeURIComponent(id)}`, options);
  }

  /** Your saved views of the runs list, after the built-in ones ("stuck or burning"); pass a view's filters to listRuns. */
  async listViews(options: { signal?: AbortSignal } = {}): Promise<SavedView[]> {
    return (await this.http.call<{ views: SavedView[] }>("GET", "/api/views", options)).views;
  }

  /** Saves a view: a name and the runs list's filters (no page); a name you already use is a 409. */
  createView(input: z.input<typeof createViewSchema>, options: { signal?: AbortSignal } = {}): Promise<SavedView> {
    return this.http.call("POST", "/api/views", { body: input, signal: options.signal });
  }

  /** Renames one of your views or replaces its filters. */
  updateView(id: string, change: Omit<z.input<typeof updateViewSchema>, "id">, options: { signal?: AbortSignal } = {}): Promise<SavedView> {
    return this.http.call("POST", `/api/views/${encodeURIComponent(id)}`, { body: change, signal: options.signal });
  }

  /** Deletes one of your views. */
  deleteView(id: string, options: { signal?: AbortSignal } = {}): Promise<{ id: string; deleted: true }> {
    return this.http.call("DELETE", `/api/views/${encodeURIComponent(id)}`, options);
  }

  /** Every spend limit with its scope's spend in the current UTC day or month (unpriced usage apart, never as $0). */
  async listSpendLimits(options: { signal?: AbortSignal } = {}): Promise<SpendLimitView[]> {
    return (await this.http.call<{ limits: SpendLimitView[] }>("GET", "/api/spend-limits", options)).limits;
  }

  /** Sets the limit of one scope and period, e.g. `{ scope: "graph", scopeId: "support-triage", period: "day", amountUsd: 5 }` (admins; builders graphs only). */
  async setSpendLimit(input: SetSpendLimitRequest, options: { signal?: AbortSignal } = {}): Promise<SpendLimitView> {
    return (await this.http.call<{ limit: SpendLimitView }>("POST", "/api/spend-limits", { body: input, signal: options.signal })).limit;
  }

  /** Removes a spend limit: runs of its scope are no longer refused by it. */
  removeSpendLimit(id: string, options: { signal?: AbortSignal } = {}): Promise<{ removed: string }> {
    return this.http.call("DELETE", `/api/spend-limits/${encodeURIComponent(id)}`, options);
  }

  /** A graph's version labels (version, split, protected, pending request) and the label names protected on it. */
  listLabels(graph: string, options: { signal?: AbortSignal } = {}): Promise<LabelList> {
    return this.http.call("GET", `/api/agents/${encodeURIComponent(graph)}/labels`, options);
  }

  /**
   * Points a label at a version, with a traffic split (`{ version, percent, sticky: "conversation" | "context", contextKey? }`)
   * or `split: null`; a protected label answers `{ status: "requested", request }`: an approver decides it in the inbox.
   */
  setLabel(graph: string, label: string, input: { version: number; split?: { version: number; percent: number; sticky?: Split["sticky"]; contextKey?: string } | null; note?: string }, options: { signal?: AbortSignal } = {}): Promise<LabelChangeResult> {
    return this.http.call("POST", `/api/agents/${encodeURIComponent(graph)}/labels/${encodeURIComponent(label)}`, { body: input, signal: options.signal });
  }

  /** Removes a label (a protected one: requests its removal). */
  removeLabel(graph: string, label: string, options: { signal?: AbortSignal } = {}): Promise<LabelChangeResult> {
    return this.http.call("DELETE", `/api/agents/${encodeURIComponent(graph)}/labels/${encodeURIComponent(label)}`, options);
  }

  /** Admins: whether a label is protected on a graph, or (`graph: "*"`) across the workspace. */
  protectLabel(graph: string, label: string, isProtected: boolean, options: { signal?: AbortSignal } = {}): Promise<{ graph: string; label: string; protected: boolean }> {
    return this.http.call("POST", `/api/agents/${encodeURIComponent(graph)}/labels/${encodeURIComponent(label)}/protection`, { body: { protected: isProtected }, signal: options.signal });
  }

  /** Requests to change protected labels (pending unless `status` says otherwise), each with its version diff. */
  async listLabelRequests(options: { graph?: string; status?: LabelRequestStatus; signal?: AbortSignal } = {}): Promise<LabelRequestView[]> {
    return (await this.http.call<{ requests: LabelRequestView[] }>("GET", "/api/label-requests", { query: { graph: options.graph, status: options.status }, signal: options.signal })).requests;
  }

  /** Approvers and admins: approve (the label moves) or reject a label request; never your own (403). */
  decideLabelRequest(requestId: string, decision: "approve" | "reject", note?: string, options: { signal?: AbortSignal } = {}): Promise<LabelRequestView> {
    return this.http.call("POST", `/api/label-requests/${encodeURIComponent(requestId)}/decision`, { body: { decision, ...(note ? { note } : {}) }, signal: options.signal });
  }

  /** Withdraws your own pending label request. */
  cancelLabelRequest(requestId: string, options: { signal?: AbortSignal } = {}): Promise<LabelRequestView> {
    return this.http.call("POST", `/api/label-requests/${encodeURIComponent(requestId)}/cancel`, options);
  }

  /** Every label with a traffic split (of one graph with `graph`), its two sides compared over a start range. */
  async compareLabelSplits(options: { graph?: string; from?: string; to?: string; signal?: AbortSignal } = {}): Promise<LabelComparison[]> {
    return (await this.http.call<{ comparisons: LabelComparison[] }>("GET", "/api/label-splits", { query: { graph: options.graph, from: options.from, to: options.to }, signal: options.signal })).comparisons;
  }

  /** Every schedule (of one graph with `{ graph }`), with its next firings and last outcome. */
  async listSchedules(options: { graph?: string; signal?: AbortSignal } = {}): Promise<ScheduleView[]> {
    const query = options.graph ? `?graph=${encodeURIComponent(options.graph)}` : "";
    return (await this.http.call<{ schedules: ScheduleView[] }>("GET", `/api/schedules${query}`, { signal: options.signal })).schedules;
  }

  async getSchedule(id: string, options: { signal?: AbortSignal } = {}): Promise<ScheduleView> {
    return (await this.http.call<{ schedule: ScheduleView }>("GET", `/api/schedules/${encodeURIComponent(id)}`, options)).schedule;
  }

  /** Creates a schedule (builders and admins) that starts runs of a saved graph as you, e.g. `{ name, graph: "support-triage", intervalSeconds: 3600, task: "…" }`. */
  async createSchedule(input: ScheduleCreateInput, options: { signal?: AbortSignal } = {}): Promise<ScheduleView> {
    return (await this.http.call<{ schedule: ScheduleView }>("POST", "/api/schedules", { body: input, signal: options.signal })).schedule;
  }

  /** Changes a schedule; `{ cron: "0 9 * * 1-5", intervalSeconds: null }` switches it to a cron. You own its runs from then on. */
  async updateSchedule(id: string, patch: SchedulePatch, options: { signal?: AbortSignal } = {}): Promise<ScheduleView> {
    return (await this.http.call<{ schedule: ScheduleView }>("PATCH", `/api/schedules/${encodeURIComponent(id)}`, { body: patch, signal: options.signal })).schedule;
  }

  async pauseSchedule(id: string, note?: string, options: { signal?: AbortSignal } = {}): Promise<ScheduleView> {
    return (await this.http.call<{ schedule: ScheduleView }>("POST", `/api/schedules/${encodeURIComponent(id)}/pause`, { body: note ? { note } : {}, signal: options.signal })).schedule;
  }

  async resumeSchedule(id: string, options: { signal?: AbortSignal } = {}): Promise<ScheduleView> {
    return (await this.http.call<{ schedule: ScheduleView }>("POST", `/api/schedules/${encodeURIComponent(id)}/resume`, options)).schedule;
  }

  /** "Run now": one firing at once. */
  triggerSchedule(id: string, options: { signal?: AbortSignal } = {}): Promise<{ triggered: string }> {
    return this.http.call("POST", `/api/schedules/${encodeURIComponent(id)}/trigger`, options);
  }

  /** Starts the firings of a past range now (ISO times; at most 31 days and 20 firings). */
  backfillSchedule(id: string, range: { from: string; to: string }, options: { signal?: AbortSignal } = {}): Promise<{ backfilled: string; firings: number }> {
    return this.http.call("POST", `/api/schedules/${encodeURIComponent(id)}/backfill`, { body: range, signal: options.signal });
  }

  /** Deletes a schedule and its Temporal Schedule; its runs stay. */
  deleteSchedule(id: string, options: { signal?: AbortSignal } = {}): Promise<{ deleted: string }> {
    return this.http.call("DELETE", `/api/schedules/${encodeURIComponent(id)}`, options);
  }

  /** Every model's token prices (US dollars per million tokens) and their history: shipped defaults, ZAP_MODEL_PRICES and admins' prices. */
  async listModelPrices(options: { signal?: AbortSignal } = {}): Promise<ModelPriceEntry[]> {
    return (await this.http.call<ModelPriceList>("GET", "/api/prices", options)).entries;
  }

  /** Prices a model from `effectiveFrom` (default now) on, e.g. `{ model: "openai/gpt-4o", input: 2.5, output: 10 }` (admins). */
  setModelPrice(input: SetModelPriceInput, options: { signal?: AbortSignal } = {}): Promise<SavedModelPrice> {
    return this.http.call("POST", "/api/prices", { body: input, signal: options.signal });
  }

  /** Removes a price an admin set (admins); the model's earlier price applies again. */
  removeModelPrice(id: string, options: { signal?: AbortSignal } = {}): Promise<{ id: string; model: string }> {
    return this.http.call("DELETE", `/api/prices/${encodeURIComponent(id)}`, options);
  }

  /** The approval channels' SMTP and Slack settings, each field with its source (admins); a secret only as set. */
  getApprovalChannels(options: { signal?: AbortSignal } = {}): Promise<ApprovalChannelsView> {
    return this.http.call("GET", "/api/approval-channels", options);
  }

  /** Changes the approval channels' settings (admins): an absent field is kept, null clears it, e.g. `{ slackChannel: "C0123ABCD" }`. */
  updateApprovalChannels(input: UpdateApprovalChannelsInput, options: { signal?: AbortSignal } = {}): Promise<{ changed: ApprovalChannelField[]; settings: ApprovalChannelsView }> {
    return this.http.call("PATCH", "/api/approval-channels", { body: input, signal: options.signal });
  }

  /** Sends a test email (`{ channel: "email", to }`) or Slack message (`{ channel: "slack" }`) with the settings in effect (admins). */
  sendApprovalChannelTest(input: SendApprovalChannelTestInput, options: { signal?: AbortSignal } = {}): Promise<ApprovalChannelTestResult> {
    return this.http.call("POST", "/api/approval-channels/test", { body: input, signal: options.signal });
  }

  /** Every inbound webhook endpoint (of one graph when named); never a secret. */
  async listWebhooks(graph?: string, options: { signal?: AbortSignal } = {}): Promise<WebhookView[]> {
    const query = graph ? `?graph=${encodeURIComponent(graph)}` : "";
    return (await this.http.call<{ webhooks: WebhookView[] }>("GET", `/api/webhooks${query}`, options)).webhooks;
  }

  async getWebhook(id: string, options: { signal?: AbortSignal } = {}): Promise<WebhookView> {
    return (await this.http.call<{ webhook: WebhookView }>("GET", `/api/webhooks/${encodeURIComponent(id)}`, options)).webhook;
  }

  /** Creates an endpoint (builders and admins) whose signed deliveries start runs of a saved graph as you; the secret is answered this once. */
  createWebhook(input: WebhookCreateInput, options: { signal?: AbortSignal } = {}): Promise<WebhookWithSecret> {
    return this.http.call("POST", "/api/webhooks", { body: input, signal: options.signal });
  }

  /** Changes an endpoint, e.g. `{ enabled: false }`; you own the runs it starts from then on. */
  async updateWebhook(id: string, patch: WebhookPatch, options: { signal?: AbortSignal } = {}): Promise<WebhookView> {
    return (await this.http.call<{ webhook: WebhookView }>("PATCH", `/api/webhooks/${encodeURIComponent(id)}`, { body: patch, signal: options.signal })).webhook;
  }

  /** A new signing secret, answered this once; the old one verifies nothing from then on. */
  rotateWebhookSecret(id: string, options: { signal?: AbortSignal } = {}): Promise<WebhookWithSecret> {
    return this.http.call("POST", `/api/webhooks/${encodeURIComponent(id)}/rotate`, options);
  }

  /** Deletes an endpoint and its deliveries; its runs stay. */
  deleteWebhook(id: string, options: { signal?: AbortSignal } = {}): Promise<{ deleted: string }> {
    return this.http.call("DELETE", `/api/webhooks/${encodeURIComponent(id)}`, options);
  }

  /** The endpoint's newest deliveries with their outcome (started, duplicate, refused) and reason. */
  async listWebhookDeliveries(id: string, options: { signal?: AbortSignal } = {}): Promise<WebhookDeliveryView[]> {
    return (await this.http.call<{ deliveries: WebhookDeliveryView[] }>("GET", `/api/webhooks/${encodeURIComponent(id)}/deliveries`, options)).deliveries;
  }

  /** Every monitor, with its open alert when it fires. */
  async listMonitors(options: { signal?: AbortSignal } = {}): Promise<MonitorView[]> {
    return (await this.http.call<{ monitors: MonitorView[] }>("GET", "/api/monitors", options)).monitors;
  }

  /** Creates a monitor (builders and admins): a threshold on a dashboard series over a window, e.g. `{ name, series: "runs_failed", stat: "rate", comparator: "gt", threshold: 0.1, windowMinutes: 15 }`. */
  async createMonitor(input: MonitorCreateInput, options: { signal?: AbortSignal } = {}): Promise<MonitorView> {
    return (await this.http.call<{ monitor: MonitorView }>("POST", "/api/monitors", { body: input, signal: options.signal })).monitor;
  }

  /** Changes a monitor; `{ enabled: false }` disables it (a firing one resolves). */
  async updateMonitor(id: string, patch: MonitorPatch, options: { signal?: AbortSignal } = {}): Promise<MonitorView> {
    return (await this.http.call<{ monitor: MonitorView }>("PATCH", `/api/monitors/${encodeURIComponent(id)}`, { body: patch, signal: options.signal })).monitor;
  }

  /** Deletes a monitor; its alerts stay in the history. */
  deleteMonitor(id: string, options: { signal?: AbortSignal } = {}): Promise<{ deleted: string }> {
    return this.http.call("DELETE", `/api/monitors/${encodeURIComponent(id)}`, options);
  }

  /** Alerts newest first: `state: "firing"` for what fires now, `monitorId` for one monitor's history. */
  async listAlerts(query: { state?: AlertState; monitorId?: string; limit?: number } = {}, options: { signal?: AbortSignal } = {}): Promise<AlertView[]> {
    return (await this.http.call<{ alerts: AlertView[] }>("GET", "/api/monitors/alerts", { query: { ...query }, signal: options.signal })).alerts;
  }

  /** Every online evaluator with its last day's figures (issue 40 §2; docs/online-evaluation.md). */
  async listEvaluators(options: { signal?: AbortSignal } = {}): Promise<EvaluatorView[]> {
    return (await this.http.call<{ evaluators: EvaluatorView[] }>("GET", "/api/evaluators", options)).evaluators;
  }

  async getEvaluator(id: string, options: { signal?: AbortSignal } = {}): Promise<EvaluatorView> {
    return (await this.http.call<{ evaluator: EvaluatorView }>("GET", `/api/evaluators/${encodeURIComponent(id)}`, options)).evaluator;
  }

  /** Creates an evaluator (builders and admins) scoring a graph's runs that end from now on, e.g. `{ name, graph, checks: [{ source: "scorer", scorer: { kind: "contains", text: "refund" } }] }`. */
  async createEvaluator(input: CreateEvaluatorInput, options: { signal?: AbortSignal } = {}): Promise<EvaluatorView> {
    return (await this.http.call<{ evaluator: EvaluatorView }>("POST", "/api/evaluators", { body: input, signal: options.signal })).evaluator;
  }

  /** Changes an evaluator; `{ enabled: false }` stops it scoring (what it scored stays). */
  async updateEvaluator(id: string, patch: Omit<UpdateEvaluatorInput, "id">, options: { signal?: AbortSignal } = {}): Promise<EvaluatorView> {
    return (await this.http.call<{ evaluator: EvaluatorView }>("PATCH", `/api/evaluators/${encodeURIComponent(id)}`, { body: patch, signal: options.signal })).evaluator;
  }

  /** Deletes an evaluator with its evaluations. */
  deleteEvaluator(id: string, options: { signal?: AbortSignal } = {}): Promise<{ deleted: true }> {
    return this.http.call("DELETE", `/api/evaluators/${encodeURIComponent(id)}`, options);
  }

  /** Scores the evaluator's runs that ended in [from, to) (ISO times, the past, at most 31 days); runs already evaluated are left as they are. */
  async startBackfill(id: string, range: { from: string; to: string }, options: { signal?: AbortSignal } = {}): Promise<BackfillView> {
    return (await this.http.call<{ backfill: BackfillView }>("POST", `/api/evaluators/${encodeURIComponent(id)}/backfill`, { body: range, signal: options.signal })).backfill;
  }

  async listBackfills(id: string, options: { signal?: AbortSignal } = {}): Promise<BackfillView[]> {
    return (await this.http.call<{ backfills: BackfillView[] }>("GET", `/api/evaluators/${encodeURIComponent(id)}/backfill`, options)).backfills;
  }

  /** Every evaluator's decision on a run (its root run's), with the scores. */
  async evaluationsOfRun(runId: string, options: { signal?: AbortSignal } = {}): Promise<EvaluationView[]> {
    return (await this.http.call<{ evaluations: EvaluationView[] }>("GET", `/api/runs/${encodeURIComponent(runId)}/evaluations`, options)).evaluations;
  }

  /** Opens a recorded model call (a run's inference span), ready to edit and run again: messages, tools (described now, audited), model, parameters, original output. */
  loadPlaygroundCall(runId: string, spanId: string, options: { signal?: AbortSignal } = {}): Promise<PlaygroundCall> {
    return this.http.call("POST", `/api/runs/${encodeURIComponent(runId)}/spans/${encodeURIComponent(spanId)}/playground`, options);
  }

  /** Runs one model call alone (builders and admins): no run is created and no tool runs; proposed tool calls come back as data. */
  playgroundCall(input: PlaygroundCallInput, options: { signal?: AbortSignal } = {}): Promise<PlaygroundResult> {
    return this.http.call("POST", "/api/playground/call", { body: input, signal: options.signal });
  }

  /**
   * Saves a playground edit (system prompt, model, temperature, output cap of one agent) as a draft version of its
   * graph: runnable by its number, not the default until promoted (builders and admins). `changes` is what it holds;
   * nothing of the agent changed → 422.
   */
  savePlaygroundDraft(input: SavePlaygroundDraftInput, options: { signal?: AbortSignal } = {}): Promise<PlaygroundDraftSaved> {
    return this.http.call("POST", "/api/playground/draft", { body: input, signal: options.signal });
  }

  /** Makes a draft version the graph's default (builders and admins): 409 when it is no draft or a newer version is the default. */
  promoteAgentVersion(name: string, version: number, options: { signal?: AbortSignal } = {}): Promise<VersionSummary> {
    return this.http.call("POST", `/api/agents/${encodeURIComponent(name)}/versions/${version}/promote`, options);
  }

  /**
   * Sets or changes your feedback on a run, or on one of its spans with `spanId`: the thumbs (`rating`), or a named
   * score (`key` with a `value` number or a `category`, like `{ key: "accuracy", value: 0.8 }`), with an optional
   * comment (≤ 2,000 characters). One per user, target and key.
   */
  setFeedback(input: SetFeedbackInput, options: { signal?: AbortSignal } = {}): Promise<FeedbackSet> {
    const { runId, ...body } = input;
    return this.http.call("POST", `/api/runs/${encodeURIComponent(runId)}/feedback`, { body, signal: options.signal });
  }

  /** Removes your thumbs on a run, or on one of its spans. */
  removeFeedback(runId: string, spanId?: string, options: { signal?: AbortSignal } = {}): Promise<{ removed: true }> {
    const path = spanId ? `/api/runs/${encodeURIComponent(runId)}/spans/${encodeURIComponent(spanId)}/feedback` : `/api/runs/${encodeURIComponent(runId)}/feedback`;
    return this.http.call("DELETE", path, options);
  }

  /** Removes your named score `key` on a run, or on one of its spans. */
  removeScore(runId: string, key: string, spanId?: string, options: { signal?: AbortSignal } = {}): Promise<{ removed: true }> {
    const run = `/api/runs/${encodeURIComponent(runId)}`;
    return this.http.call("DELETE", `${spanId ? `${run}/spans/${encodeURIComponent(spanId)}` : run}/feedback/scores/${encodeURIComponent(key)}`, options);
  }

  /** The feedback on a run and its spans (a root run: its whole tree), newest first. */
  async listFeedback(runId: string, options: { signal?: AbortSignal } = {}): Promise<FeedbackItem[]> {
    return (await this.http.call<{ items: FeedbackItem[] }>("GET", `/api/runs/${encodeURIComponent(runId)}/feedback`, options)).items;
  }

  /** Starts an experiment (builders and admins): a dataset version against 1–6 graph versions, scored → its id and unit count. */
  startExperiment(input: StartExperimentInput, options: { signal?: AbortSignal } = {}): Promise<{ experimentId: string; total: number }> {
    return this.http.call("POST", "/api/experiments", { body: input, signal: options.signal });
  }

  /** The newest experiments with their progress. */
  async listExperiments(query: { limit?: number } = {}, options: { signal?: AbortSignal } = {}): Promise<ExperimentSummary[]> {
    return (await this.http.call<{ experiments: ExperimentSummary[] }>("GET", "/api/experiments", { query: { ...query }, signal: options.signal })).experiments;
  }

  /** One experiment and a page of its results (ask again from `nextCursor` while it is not null). */
  getExperiment(experimentId: string, page: { limit?: number; cursor?: number } = {}, options: { signal?: AbortSignal } = {}): Promise<ExperimentDetail> {
    return this.http.call("GET", `/api/experiments/${encodeURIComponent(experimentId)}`, { query: { ...page }, signal: options.signal });
  }

  /** Cancels a running experiment and its in-flight item runs. */
  cancelExperiment(experimentId: string, options: { signal?: AbortSignal } = {}): Promise<{ accepted: true }> {
    return this.http.call("POST", `/api/experiments/${encodeURIComponent(experimentId)}/cancel`, options);
  }

  /** Waits until the experiment is no longer running and returns it with every result (all pages). */
  async waitForExperiment(experimentId: string, options: WaitOptions = {}): Promise<ExperimentDetail> {
    const deadline = options.timeoutMs === undefined ? Infinity : Date.now() + options.timeoutMs;
    let delay: number = POLL_MS.first;
    for (;;) {
      const first = await this.getExperiment(experimentId, { limit: 1 }, { signal: options.signal });
      if (first.experiment.status !== "running") {
        const results: ExperimentDetail["results"] = [];
        let cursor: number | null = 0;
        while (cursor !== null) {
          const page: ExperimentDetail = await this.getExperiment(experimentId, { cursor, limit: 2_000 }, { signal: options.signal });
          results.push(...page.results);
          cursor = page.nextCursor;
        }
        return { experiment: first.experiment, results, nextCursor: null };
      }
      if (Date.now() + delay > deadline) throw new ApiError(0, "timeout", `Experiment ${experimentId} was still running after ${options.timeoutMs} ms`);
      await sleep(delay, options.signal);
      delay = Math.min(delay * 2, POLL_MS.max);
    }
  }

  // ---- datasets (lib/datasets): reads need any role, changes a builder's (agents:edit); each change makes a new version ----

  /** Datasets, last changed first. */
  async listDatasets(query: { includeArchived?: boolean } = {}, options: { signal?: AbortSignal } = {}): Promise<DatasetSummary[]> {
    return (await this.http.call<{ datasets: DatasetSummary[] }>("GET", "/api/datasets", { query, signal: options.signal })).datasets;
  }

  /** Creates an empty dataset (a name in use → 409). */
  createDataset(input: z.input<typeof createDatasetSchema>, options: { signal?: AbortSignal } = {}): Promise<DatasetSummary> {
    return this.http.call("POST", "/api/datasets", { body: input, signal: options.signal });
  }

  /** One page of a version's items (default: the newest version, page 1 of 50). */
  getDataset(datasetId: string, query: { version?: number; page?: number; pageSize?: number } = {}, options: { signal?: AbortSignal } = {}): Promise<DatasetItemsPage> {
    return this.http.call("GET", `/api/datasets/${encodeURIComponent(datasetId)}`, { query, signal: options.signal });
  }

  /** Every item of a version, read page by page (500 a page). */
  async readAllDatasetItems(datasetId: string, version?: number, options: { signal?: AbortSignal } = {}): Promise<{ version: number; items: DatasetItem[] }> {
    const items: DatasetItem[] = [];
    let pinned = version;
    for (let page = 1; ; page++) {
      const read = await this.getDataset(datasetId, { ...(pinned !== undefined ? { version: pinned } : {}), page, pageSize: 500 }, options);
      pinned = read.version;
      items.push(...read.items);
      if (items.length >= read.total || read.items.length === 0) return { version: read.version, items };
    }
  }

  async listDatasetVersions(datasetId: string, options: { signal?: AbortSignal } = {}): Promise<{ dataset: DatasetSummary; versions: DatasetVersionSummary[] }> {
    return this.http.call("GET", `/api/datasets/${encodeURIComponent(datasetId)}/versions`, options);
  }

  /** What changed between two versions: added, removed and changed items. */
  diffDatasetVersions(datasetId: string, from: number, to: number, options: { signal?: AbortSignal } = {}): Promise<DatasetDiff> {
    return this.http.call("GET", `/api/datasets/${encodeURIComponent(datasetId)}/diff`, { query: { from, to }, signal: options.signal });
  }

  /** One item per finished run (its task, answer, tool calls and recorded tool results), into a dataset or a new one. */
  addRunsToDataset(input: z.input<typeof addRunsToDatasetSchema>, options: { signal?: AbortSignal } = {}): Promise<DatasetChange> {
    return this.http.call("POST", "/api/datasets/add-runs", { body: input, signal: options.signal });
  }

  /** Decided tool-call approvals a dataset can learn from, newest first. */
  listDecidedApprovals(query: { tool?: string; graphName?: string; page?: number } = {}, options: { signal?: AbortSignal } = {}): Promise<{ approvals: DecidedApproval[]; page: number; hasMore: boolean }> {
    return this.http.call("GET", "/api/datasets/approvals", { query, signal: options.signal });
  }

  /** One item per decided approval: an approved (or edited) call as expected, a rejection as a negative example; `leftOut`: those decided in edited history, with why. */
  addApprovalsToDataset(input: z.input<typeof addApprovalsToDatasetSchema>, options: { signal?: AbortSignal } = {}): Promise<ApprovalsAdded> {
    return this.http.call("POST", "/api/datasets/add-approvals", { body: input, signal: options.signal });
  }

  /** Imports CSV or JSONL text; any line with a problem → ApiError 422 whose issues name each line (nothing imported unless skipInvalid). */
  importDataset(input: z.input<typeof importDatasetSchema>, options: { signal?: AbortSignal } = {}): Promise<DatasetChange & { skipped: ImportProblem[] }> {
    return this.http.call("POST", "/api/datasets/import", { body: input, signal: options.signal });
  }

  updateDatasetItem(datasetId: string, itemId: string, change: Omit<z.input<typeof updateDatasetItemSchema>, "datasetId" | "itemId">, options: { signal?: AbortSignal } = {}): Promise<DatasetChange> {
    return this.http.call("POST", `/api/datasets/${encodeURIComponent(datasetId)}/items/${encodeURIComponent(itemId)}`, { body: change, signal: options.signal });
  }

  removeDatasetItems(datasetId: string, itemIds: string[], note?: string, options: { signal?: AbortSignal } = {}): Promise<DatasetChange> {
    return this.http.call("DELETE", `/api/datasets/${encodeURIComponent(datasetId)}/items`, { body: { itemIds, ...(note ? { note } : {}) }, signal: options.signal });
  }

  /** Archives a dataset: still readable, no longer changed. */
  archiveDataset(datasetId: string, options: { signal?: AbortSignal } = {}): Promise<DatasetSummary> {
    return this.http.call("DELETE", `/api/datasets/${encodeURIComponent(datasetId)}`, options);
  }
}
