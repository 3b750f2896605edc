// Sends finished run trees to an OTLP/HTTP endpoint. Built so that the export
// can never slow or fail a run: asking for an export only notes the run id
// (a bounded set, O(1)); one background loop reads the ledger and hands spans
// to the SDK's BatchSpanProcessor behind a bounded queue; whatever does not
// fit, or does not reach the endpoint, is dropped and counted, never retried
// into memory and never thrown.
import { SpanStatusCode, TraceFlags, type Attributes, type SpanContext } from "@opentelemetry/api";
import { ExportResultCode, hrTimeDuration, millisToHrTime, type ExportResult } from "@opentelemetry/core";
import { resourceFromAttributes, type Resource } from "@opentelemetry/resources";
import { BatchSpanProcessor, type ReadableSpan, type SpanExporter } from "@opentelemetry/sdk-trace";
import { OTLPTraceExporter } from "@opentelemetry/exporter-trace-otlp-proto";
import type { Db } from "../db/prisma";
import type { TelemetryConfig } from "./config";
import { readLedgerTree } from "./ledger-tree";
import { mapRunTree, type ExportSpan } from "./mapping";
import { addExportStats, statsDelta, type TelemetryStats } from "./stats-store";

export type { TelemetryStats } from "./stats-store";

export interface RunExporter {
  /** Notes that a run tree should be exported; returns at once and never throws. */
  requestExport(runId: string): void;
  /** Reads a run tree and queues its spans now; the number queued, or null for an unknown run. */
  exportRunTree(runId: string): Promise<number | null>;
  stats(): TelemetryStats;
  /** Sends what is queued (waits for the requested trees first). */
  flush(): Promise<void>;
  /** Adds the counts since the last time to the shared row GET /api/health reads (done every few seconds on its own). */
  saveStats(): Promise<void>;
  shutdown(): Promise<void>;
}

export interface RunExporterOptions {
  db: Db;
  config: TelemetryConfig;
  /** Replaces the OTLP/HTTP exporter (tests). */
  spanExporter?: SpanExporter;
  /** How long to wait after a root run ends before reading its tree, so its sub-runs' last ledger writes land. */
  settleMs?: number;
  /** Run trees waiting to be read, at most. */
  maxPendingRuns?: number;
  /** How often the counts are added to the shared row (ms). */
  statsEveryMs?: number;
}

const SCOPE = { name: "zap-studio/run-ledger" };

function toReadableSpan(span: ExportSpan, resource: Resource): ReadableSpan {
  const context: SpanContext = { traceId: span.traceId, spanId: span.spanId, traceFlags: TraceFlags.SAMPLED };
  const parent: SpanContext | undefined = span.parentSpanId ? { traceId: span.traceId, spanId: span.parentSpanId, traceFlags: TraceFlags.SAMPLED } : undefined;
  const startTime = millisToHrTime(span.startMs);
  const endTime = millisToHrTime(Math.max(span.endMs, span.startMs));
  const code = span.status === "ok" ? SpanStatusCode.OK : span.status === "error" ? SpanStatusCode.ERROR : SpanStatusCode.UNSET;
  return {
    name: span.name,
    kind: span.kind,
    spanContext: () => context,
    parentSpanContext: parent,
    startTime,
    endTime,
    duration: hrTimeDuration(startTime, endTime),
    status: span.statusMessage ? { code, message: span.statusMessage } : { code },
    attributes: span.attributes as Attributes,
    links: [],
    events: span.events.map((e) => ({ name: e.name, time: millisToHrTime(e.atMs), attributes: e.attributes as Attributes, droppedAttributesCount: 0 })),
    ended: true,
    resource,
    instrumentationScope: SCOPE,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

export function createRunExporter(options: RunExporterOptions): RunExporter {
  const { db, config } = options;
  const settleMs = options.settleMs ?? 1000;
  const maxPendingRuns = options.maxPendingRuns ?? 256;
  const resource = resourceFromAttributes({ ...config.resourceAttributes, "service.name": config.serviceName });
  const counts: TelemetryStats = { exportedSpans: 0, droppedSpans: 0, failedExports: 0, droppedRuns: 0, lastFailureAt: null };
  const inner = options.spanExporter ?? new OTLPTraceExporter({ url: config.tracesUrl, headers: config.headers, timeoutMillis: config.timeoutMs });
  // Spans handed to the processor and not yet taken by the exporter: the queue's length, kept here
  // because the SDK drops silently when full; at the same bound it never has to.
  let queued = 0;
  const counting: SpanExporter = {
    export(spans, done) {
      queued -= spans.length;
      inner.export(spans, (result: ExportResult) => {
        if (result.code === ExportResultCode.SUCCESS) counts.exportedSpans += spans.length;
        else {
          counts.droppedSpans += spans.length;
          counts.failedExports += 1;
          counts.lastFailureAt = new Date().toISOString();
        }
        done(result);
      });
    },
    shutdown: () => inner.shutdown(),
    forceFlush: () => inner.forceFlush?.() ?? Promise.resolve(),
  };
  const processor = new BatchSpanProcessor({
    exporter: counting,
    maxQueueSize: config.maxQueueSize,
    maxExportBatchSize: config.maxExportBatchSize,
    scheduledDelayMillis: config.scheduleDelayMs,
    exportTimeoutMillis: config.timeoutMs + 1000,
  });

  /**
   * Hands a tree's spans to the processor. A tree larger than the queue waits
   * for room (this runs in the background loop, never in a run's path), but
   * only while the endpoint takes batches: after a timeout without room, the
   * rest is dropped and counted rather than held in memory.
   */
  async function enqueue(spans: ExportSpan[]): Promise<number> {
    let accepted = 0;
    for (const [i, span] of spans.entries()) {
      const waitUntil = Date.now() + config.timeoutMs;
      while (queued >= config.maxQueueSize && Date.now() < waitUntil && !stopping) await new Promise((resolve) => setTimeout(resolve, 20));
      if (queued >= config.maxQueueSize) {
        counts.droppedSpans += spans.length - i;
        break;
      }
      queued += 1;
      accepted += 1;
      processor.onEnd(toReadableSpan(span, resource));
    }
    return accepted;
  }

  async function exportRunTree(runId: string): Promise<number | null> {
    const tree = await readLedgerTree(db, runId);
    if (!tree) return null;
    return await enqueue(mapRunTree(tree, Date.now()));
  }

  // The background loop: one tree at a time, in the order asked, each read `settleMs` after it was asked
  // for (not `settleMs` apart); a run asked again while it waits is read once.
  const pending = new Map<string, number>();
  let loop: Promise<void> | null = null;
  let stopping = false;
  /** Set on shutdown: read what is waiting now, without the settle delay. */
  let hurry = false;

  async function drain(): Promise<void> {
    while (pending.size > 0 && !stopping) {
      const [next] = pending;
      if (!next) break;
      const [runId, dueAt] = next;
      const wait = dueAt - Date.now();
      if (wait > 0 && !hurry) await new Promise((resolve) => setTimeout(resolve, wait));
      pending.delete(runId);
      try {
        await exportRunTree(runId);
      } catch (error) {
        counts.droppedRuns += 1;
        counts.lastFailureAt = new Date().toISOString();
        console.error(`otel export: run ${runId} not exported: ${error instanceof Error ? error.message : String(error)}`);
      }
    }
  }

  function startLoop(): void {
    if (loop) return;
    loop = drain().finally(() => {
      loop = null;
      if (pending.size > 0 && !stopping) startLoop();
    });
  }

  // The counts reach the database every few seconds; a failed write keeps them for the next one.
  let saved: TelemetryStats = { exportedSpans: 0, droppedSpans: 0, failedExports: 0, droppedRuns: 0, lastFailureAt: null };
  let saving: Promise<void> = Promise.resolve();
  function saveStats(): Promise<void> {
    saving = saving.then(async () => {
      const now = { ...counts };
      const delta = statsDelta(now, saved);
      if (!delta) return;
      try {
        await addExportStats(db, delta);
        saved = now;
      } catch (error) {
        console.error(`otel export: counts not saved (kept for the next try): ${error instanceof Error ? error.message : String(error)}`);
      }
    });
    return saving;
  }
  const statsTimer = setInterval(() => void saveStats(), options.statsEveryMs ?? 5000);
  statsTimer.unref();

  return {
    requestExport(runId) {
      if (stopping || pending.has(runId)) return;
      if (pending.size >= maxPendingRuns) {
        counts.droppedRuns += 1;
        return;
      }
      pending.set(runId, Date.now() + settleMs);
      startLoop();
    },
    exportRunTree,
    stats: () => ({ ...counts }),
    async flush() {
      while (loop) await loop;
      await processor.forceFlush().catch(() => undefined);
    },
    saveStats,
    async shutdown() {
      // Trees already asked for are sent (a worker draining on SIGTERM still exports the runs it finished),
      // for at most one export timeout: what is still waiting then is counted as dropped.
      hurry = true;
      const deadline = new Promise((resolve) => setTimeout(resolve, config.timeoutMs).unref());
      while (loop && (await Promise.race([loop.then(() => "done"), deadline.then(() => "late")])) === "done");
      stopping = true;
      counts.droppedRuns += pending.size;
      pending.clear();
      clearInterval(statsTimer);
      await processor.shutdown().catch(() => undefined);
      await saveStats();
    },
  };
}
