/**
 * PgTraceStore's background writes. A batch is one transaction: the trace rows first, then the span
 * rows (their foreign key needs the trace), each as multi-row INSERTs of one JSON parameter
 * (trace-rows.ts).
 *
 * When a batch fails:
 * - a data or constraint error (SQLSTATE class 22 or 23: a value the table refuses) is some trace's
 *   fault, not the batch's: the traces are written again one per transaction, so only the ones the
 *   database refuses are lost, each counted and logged;
 * - any other error (connection lost, server restarting, serialization, a missing table) is retried
 *   after a pause that doubles each time (retryDelayMs, 2×, 4×, …), at most `maxRetries` times; then
 *   the batch's traces are counted as dropped and logged by id.
 * Retries are safe: the trace INSERT skips traces whose id is already stored (ON CONFLICT DO NOTHING
 * RETURNING "id") and only the spans of the traces it did insert follow, so a batch whose COMMIT
 * landed but whose reply was lost is not stored twice. A trace offered twice is stored once (and
 * counted as written both times). The spans, the bulk of the rows, pay for no speculative insertion:
 * ON CONFLICT on them measured about a tenth of the write.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { type Trace } from '@helios/core';
import { type DataSource } from 'typeorm';
import {
  insertStatements,
  type RedactText,
  SPAN_COLUMNS,
  TRACE_COLUMNS,
  traceRows,
  type TraceRows,
} from './trace-rows.js';

export interface TraceStoreLogger {
  warn(message: string): void;
  error(message: string): void;
}

/** The counters the store and its writer share (the store hands out frozen copies). */
export interface TraceCounters {
  enqueued: number;
  written: number;
  spansWritten: number;
  droppedOverflow: number;
  droppedFailed: number;
  failedBatches: number;
  retries: number;
}

export interface TraceBatchWriterOptions {
  readonly traces: string;
  readonly spans: string;
  readonly logger: TraceStoreLogger;
  readonly redact: RedactText | undefined;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  /** Characters of parameters per statement before a batch is cut into several statements. */
  readonly maxStatementChars: number;
}

/** The trace INSERT's ending: skip a trace stored before, and say which ones were inserted. */
const TAIL = 'ON CONFLICT DO NOTHING RETURNING "id"';

/** At most this many ids in one log line; the rest are counted. */
const IDS_IN_LOG = 20;

export function describeIds(ids: readonly string[]): string {
  const shown = ids.slice(0, IDS_IN_LOG).join(', ');
  return ids.length > IDS_IN_LOG ? `${shown} and ${ids.length - IDS_IN_LOG} more` : shown;
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function sqlState(error: unknown): string {
  const code = (error as { code?: unknown; driverError?: { code?: unknown } } | null)?.code;
  const driverCode = (error as { driverError?: { code?: unknown } } | null)?.driverError?.code;
  return typeof code === 'string' ? code : typeof driverCode === 'string' ? driverCode : '';
}

/** A value or constraint the table refuses: retrying the same rows cannot help. */
function refusedByTable(error: unknown): boolean {
  const state = sqlState(error);
  return state.startsWith('22') || state.startsWith('23');
}

export class TraceBatchWriter {
  constructor(
    private readonly dataSource: DataSource,
    private readonly options: TraceBatchWriterOptions,
    private readonly counters: TraceCounters,
  ) {}

  /** Writes `batch`, retrying as above; never throws (what it cannot write is counted and logged). */
  async write(batch: readonly Trace[]): Promise<void> {
    const prepared: TraceRows[] = [];
    for (const trace of batch) {
      try {
        prepared.push(traceRows(trace, this.options.redact));
      } catch (error) {
        this.drop([String(trace?.id)], `cannot be stored: ${errorMessage(error)}`);
      }
    }
    if (prepared.length > 0) await this.writeWithRetries(prepared);
  }

  private async writeWithRetries(prepared: readonly TraceRows[]): Promise<void> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        await this.insert(prepared);
        this.counters.written += prepared.length;
        for (const rows of prepared) this.counters.spansWritten += rows.spans.length;
        return;
      } catch (error) {
        if (refusedByTable(error)) {
          if (prepared.length === 1) {
            this.counters.failedBatches += 1;
            this.drop([prepared[0]?.id ?? '?'], `refused by the database: ${errorMessage(error)}`);
            return;
          }
          this.options.logger.warn(
            `trace batch of ${prepared.length} refused (${errorMessage(error)}); writing its traces one by one`,
          );
          for (const rows of prepared) await this.writeWithRetries([rows]);
          return;
        }
        if (attempt >= this.options.maxRetries) {
          this.counters.failedBatches += 1;
          const tries = `${attempt + 1} attempt(s)`;
          this.drop(
            prepared.map((rows) => rows.id),
            `not written after ${tries}: ${errorMessage(error)}`,
          );
          return;
        }
        const delay = this.options.retryDelayMs * 2 ** attempt;
        this.counters.retries += 1;
        this.options.logger.warn(
          `trace batch of ${prepared.length} not written (${errorMessage(error)}); retry ${attempt + 1} ` +
            `of ${this.options.maxRetries} in ${delay} ms`,
        );
        await sleep(delay);
      }
    }
  }

  /** One transaction: every trace row, then the span rows of the traces not stored before. */
  private async insert(prepared: readonly TraceRows[]): Promise<void> {
    const { traces, spans, maxStatementChars } = this.options;
    const runner = this.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      const inserted = new Set<string>();
      const traceRows = prepared.map((rows) => rows.trace);
      for (const { sql, params } of insertStatements(
        traces,
        TRACE_COLUMNS,
        traceRows,
        maxStatementChars,
        TAIL,
      )) {
        for (const row of (await runner.query(sql, params)) as { id: string }[]) inserted.add(row.id);
      }
      const spanRows = prepared.flatMap((rows) => (inserted.has(rows.id) ? rows.spans : []));
      for (const { sql, params } of insertStatements(spans, SPAN_COLUMNS, spanRows, maxStatementChars)) {
        await runner.query(sql, params);
      }
      await runner.commitTransaction();
    } catch (error) {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      await runner.release();
    }
  }

  private drop(ids: readonly string[], reason: string): void {
    this.counters.droppedFailed += ids.length;
    this.options.logger.error(`trace(s) dropped, ${reason}: ${describeIds(ids)}`);
  }
}
