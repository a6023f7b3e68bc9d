/**
 * Traces on PostgreSQL (`helios_traces`, `helios_spans`), as a TraceListener that never blocks a run.
 *
 * `onTrace` only appends the trace to a bounded in-memory queue and returns; a background writer
 * takes up to `batchSize` traces at a time and writes each batch in one transaction (traces, then
 * spans; see trace-batch-writer.ts for retries, trace-rows.ts for the statements). A batch starts as
 * soon as the previous one ends, so batches grow with the load: one trace when idle, `batchSize`
 * under pressure. Nothing is durable before its batch commits: traces still queued when the process
 * dies are lost (call `close()` on shutdown).
 *
 * Overflow policy: the queue holds at most `capacity` traces waiting to be written (default 10,000;
 * up to `batchSize` more may be in flight). A trace offered to a full queue, or after `close()`, is
 * dropped, never the ones already queued: it is counted (`stats().droppedOverflow`) and logged. The
 * first drop of an episode is logged at once with its trace id; later drops of the same episode are
 * counted and reported in one line when the queue next accepts a trace, on `flush()` or `close()`.
 * A trace accepted but not written (refused by the database, or retries exhausted) is counted in
 * `droppedFailed` and logged by id. So every trace offered is written, or counted and logged.
 *
 * Redaction: with `redactor` set (`registry.redactor()` of a SecretRegistry, or any function), every
 * text field and attribute value passes through it before it reaches the database (trace-rows.ts).
 * Queries (getTrace, listTraces, summarize) are in trace-queries.ts.
 */
import { InvalidArgumentError, type Redactor, type Trace, type TraceListener } from '@helios/core';
import { type DataSource } from 'typeorm';
import { type Page } from './annotation.js';
import { PersistenceConfig } from './persistence-config.js';
import {
  describeIds,
  errorMessage,
  TraceBatchWriter,
  type TraceCounters,
  type TraceStoreLogger,
} from './trace-batch-writer.js';
import {
  type TraceListQuery,
  TraceQueries,
  type TraceRollup,
  type TraceSummary,
  type TraceSummaryQuery,
} from './trace-queries.js';
import { DEFAULT_MAX_STATEMENT_CHARS, type RedactText } from './trace-rows.js';

export interface PgTraceStoreOptions {
  /** Where drops and retries are reported. */
  readonly logger: TraceStoreLogger;
  /** The schema of the tables (default `public`). */
  readonly config?: PersistenceConfig;
  /** Applied to every text field and attribute value before the database; none: stored verbatim. */
  readonly redactor?: Redactor | RedactText;
  /** Traces waiting to be written before new ones are dropped (default 10,000). */
  readonly capacity?: number;
  /** Traces per transaction at most (default 500). */
  readonly batchSize?: number;
  /** Retries of a batch that failed for a reason other than its data (default 3). */
  readonly maxRetries?: number;
  /** Pause before the first retry; each further retry waits twice as long (default 100 ms). */
  readonly retryDelayMs?: number;
  /** Characters of JSON per INSERT before a batch is cut into several statements (default 1 Mi). */
  readonly maxStatementChars?: number;
}

export interface TraceStoreStats {
  /** Traces accepted into the queue. */
  readonly enqueued: number;
  /** Traces committed to the database. */
  readonly written: number;
  readonly spansWritten: number;
  /** Every trace lost: droppedOverflow + droppedFailed. */
  readonly dropped: number;
  /** Offered to a full queue, or after close(): never queued. */
  readonly droppedOverflow: number;
  /** Accepted but not written: refused by the database, or its batch's retries exhausted. */
  readonly droppedFailed: number;
  /** Write attempts given up (a batch after its retries, or one trace the database refused). */
  readonly failedBatches: number;
  readonly retries: number;
  /** Waiting in the queue now (not counting the batch being written). */
  readonly queued: number;
}

export const DEFAULT_TRACE_CAPACITY = 10_000;
export const DEFAULT_TRACE_BATCH_SIZE = 500;

function positiveInteger(value: number | undefined, fallback: number, name: string, max = Infinity): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 1 || chosen > max) {
    throw new InvalidArgumentError(`PgTraceStore ${name} must be an integer from 1 to ${max}, got ${chosen}`);
  }
  return chosen;
}

function wholeNumber(value: number | undefined, fallback: number, name: string): number {
  const chosen = value ?? fallback;
  if (!Number.isInteger(chosen) || chosen < 0) {
    throw new InvalidArgumentError(`PgTraceStore ${name} must be a whole number, got ${chosen}`);
  }
  return chosen;
}

function redactFunction(redactor: Redactor | RedactText | undefined): RedactText | undefined {
  if (redactor === undefined) return undefined;
  return typeof redactor === 'function' ? redactor : (text) => redactor.redactText(text);
}

export class PgTraceStore implements TraceListener {
  private readonly capacity: number;
  private readonly batchSize: number;
  private readonly logger: TraceStoreLogger;
  private readonly writer: TraceBatchWriter;
  private readonly queries: TraceQueries;
  private readonly counters: TraceCounters = {
    enqueued: 0,
    written: 0,
    spansWritten: 0,
    droppedOverflow: 0,
    droppedFailed: 0,
    failedBatches: 0,
    retries: 0,
  };
  private queue: Trace[] = [];
  /** Traces whose batch has finished (written or dropped); FIFO, so a prefix of the enqueued ones. */
  private settled = 0;
  private draining = false;
  private closed = false;
  private waiters: { readonly target: number; readonly resolve: () => void }[] = [];
  /** Drops of the current overflow episode not yet reported. */
  private unreported = 0;

  constructor(dataSource: DataSource, options: PgTraceStoreOptions) {
    const config = options.config ?? PersistenceConfig.DEFAULT;
    this.capacity = positiveInteger(options.capacity, DEFAULT_TRACE_CAPACITY, 'capacity');
    this.batchSize = positiveInteger(options.batchSize, DEFAULT_TRACE_BATCH_SIZE, 'batchSize');
    this.logger = options.logger;
    const tables = {
      traces: config.qualify('helios_traces'),
      spans: config.qualify('helios_spans'),
      annotations: config.qualify('helios_annotations'),
    };
    this.writer = new TraceBatchWriter(
      dataSource,
      {
        ...tables,
        logger: options.logger,
        redact: redactFunction(options.redactor),
        maxRetries: wholeNumber(options.maxRetries, 3, 'maxRetries'),
        retryDelayMs: wholeNumber(options.retryDelayMs, 100, 'retryDelayMs'),
        maxStatementChars: positiveInteger(
          options.maxStatementChars,
          DEFAULT_MAX_STATEMENT_CHARS,
          'maxStatementChars',
        ),
      },
      this.counters,
    );
    this.queries = new TraceQueries(dataSource, tables);
  }

  /** Queues the trace for writing and returns at once; a full queue drops it (counted and logged). */
  onTrace(trace: Trace): void {
    if (this.closed || this.queue.length >= this.capacity) {
      this.overflow(trace);
      return;
    }
    this.reportOverflow();
    this.queue.push(trace);
    this.counters.enqueued += 1;
    if (!this.draining) {
      this.draining = true;
      setImmediate(() => void this.drain());
    }
  }

  /** Resolves once every trace accepted before the call is written (or dropped, counted and logged). */
  async flush(): Promise<void> {
    this.reportOverflow();
    const target = this.counters.enqueued;
    if (this.settled >= target) return;
    await new Promise<void>((resolve) => this.waiters.push({ target, resolve }));
  }

  /** Stops accepting traces (later ones are dropped and counted), then flushes. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  stats(): TraceStoreStats {
    const { droppedOverflow, droppedFailed } = this.counters;
    return Object.freeze({
      ...this.counters,
      dropped: droppedOverflow + droppedFailed,
      queued: this.queue.length,
    });
  }

  /** The trace with its spans (ordered by start time: core spans have no parent), or undefined. */
  getTrace(id: string): Promise<Trace | undefined> {
    return this.queries.getTrace(id);
  }

  /** A page of traces, newest first, narrowed by the filters (trace-filter.ts). */
  listTraces(query?: TraceListQuery): Promise<Page<TraceSummary>> {
    return this.queries.listTraces(query);
  }

  /** Counts, errors, token and cost sums and latency percentiles, per group or in total. */
  summarize(query?: TraceSummaryQuery): Promise<TraceRollup[]> {
    return this.queries.summarize(query);
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, this.batchSize);
        try {
          await this.writer.write(batch);
        } catch (error) {
          // The writer counts and logs what it cannot write; reaching here is a bug in it. Still counted.
          this.counters.droppedFailed += batch.length;
          this.logger.error(
            `trace(s) dropped, writer failed: ${errorMessage(error)}: ${describeIds(batch.map((t) => t.id))}`,
          );
        }
        this.settled += batch.length;
        this.wake();
      }
    } finally {
      this.draining = false;
    }
  }

  private wake(): void {
    if (this.waiters.length === 0) return;
    const ready = this.waiters.filter((waiter) => waiter.target <= this.settled);
    this.waiters = this.waiters.filter((waiter) => waiter.target > this.settled);
    for (const waiter of ready) waiter.resolve();
  }

  private overflow(trace: Trace): void {
    this.counters.droppedOverflow += 1;
    if (this.unreported === 0) {
      const why = this.closed ? 'the store is closed' : `the queue is full (capacity ${this.capacity})`;
      this.logger.warn(
        `trace ${String(trace?.id)} dropped: ${why}; further drops are counted and reported ` +
          `(dropped so far: ${this.counters.droppedOverflow})`,
      );
    }
    this.unreported += 1;
  }

  /** Ends an overflow episode: one line for the drops after its first. */
  private reportOverflow(): void {
    if (this.unreported > 1) {
      this.logger.warn(
        `${this.unreported - 1} more trace(s) dropped since the first of this overflow ` +
          `(dropped so far: ${this.counters.droppedOverflow})`,
      );
    }
    this.unreported = 0;
  }
}
