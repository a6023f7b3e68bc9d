/**
 * AuditSink on PostgreSQL. Enforcement (`immediate`) records are inserted before `append` resolves, so
 * a block is on disk before its response leaves. `buffered` records are batched off the request path:
 * one multi-row INSERT per flush, at `batchSize` records or `flushIntervalMs` after the first one queued.
 * A failed batch is retried once row by row (one bad record cannot sink its neighbours); a record the
 * table refuses on its own is written quarantined (governance's quarantine.ts), and only what still
 * fails is logged as lost; buffered failures never reach the request. `close()` drains everything; records still queued when
 * the process is killed are lost (at most one interval's worth), which is why enforcement is immediate.
 */
import { quarantinedRecord, type AuditDelivery, type AuditRecord, type AuditSink } from '@helios/governance';
import { setTimeout as sleep } from 'node:timers/promises';
import { type DataSource } from 'typeorm';
import { insertAuditRecordsSql } from './audit-record-row.js';
import { runPooled } from './sql.js';

export interface AuditSinkLogger {
  warn(message: string): void;
  error(message: string): void;
}

export interface PgAuditSinkOptions {
  readonly logger: AuditSinkLogger;
  /** Records per INSERT, and the queue length that triggers a flush (default 50). */
  readonly batchSize?: number;
  /** Longest a buffered record waits for its flush (default 100 ms). */
  readonly flushIntervalMs?: number;
  /** Pause before the one retry of a failed write (default 200 ms). */
  readonly retryDelayMs?: number;
}

export class PgAuditSink implements AuditSink {
  private readonly batchSize: number;
  private readonly flushIntervalMs: number;
  private readonly retryDelayMs: number;
  private queue: AuditRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  /** Flushes run one after another, so records land in the order they were queued. */
  private flushing: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly dataSource: DataSource,
    private readonly options: PgAuditSinkOptions,
  ) {
    this.batchSize = options.batchSize ?? 50;
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.retryDelayMs = options.retryDelayMs ?? 200;
  }

  /** Records waiting for their flush (health, tests). */
  get queued(): number {
    return this.queue.length;
  }

  async append(record: AuditRecord, delivery: AuditDelivery): Promise<void> {
    // After close nothing is buffered any more: a late record is written at once.
    if (delivery === 'immediate' || this.closed) return this.writeImmediate(record);
    this.queue.push(record);
    if (this.queue.length >= this.batchSize) void this.flush();
    else this.timer ??= setTimeout(() => void this.flush(), this.flushIntervalMs).unref();
  }

  /** Writes everything queued so far; resolves when it is written (or logged as lost). Never rejects. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.flushing = this.flushing.then(() => this.drain());
    return this.flushing;
  }

  /** Drains the queue; later appends are written immediately. */
  async close(): Promise<void> {
    this.closed = true;
    await this.flush();
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.batchSize);
      await this.writeBuffered(batch);
    }
  }

  /** Immediate records: retried once, then the error propagates (the caller fails closed). */
  private async writeImmediate(record: AuditRecord): Promise<void> {
    try {
      await this.insert([record]);
    } catch (error) {
      this.options.logger.warn(`audit record ${record.id} not written, retrying once: ${message(error)}`);
      await sleep(this.retryDelayMs);
      await this.insert([record]);
    }
  }

  private async writeBuffered(batch: readonly AuditRecord[]): Promise<void> {
    try {
      await this.insert(batch);
      return;
    } catch (error) {
      this.options.logger.warn(
        `audit batch of ${batch.length} record(s) not written, retrying row by row: ${message(error)}`,
      );
    }
    await sleep(this.retryDelayMs);
    const lost: string[] = [];
    let lastError: unknown;
    for (const record of batch) {
      try {
        await this.insert([record]);
      } catch (error) {
        // A record the table refuses on its own goes in quarantined (identity bounded, payload hashed):
        // the trail keeps the call. Lost only when even that fails (the database is down).
        try {
          await this.insert([quarantinedRecord(record, error)]);
          this.options.logger.warn(`audit record ${record.id} written quarantined: ${message(error)}`);
        } catch (again) {
          lost.push(record.id);
          lastError = again;
        }
      }
    }
    if (lost.length > 0) {
      this.options.logger.error(
        `audit record(s) lost after retry: ${lost.join(', ')} (${message(lastError)})`,
      );
    }
  }

  private async insert(records: readonly AuditRecord[]): Promise<void> {
    const { sql, params } = insertAuditRecordsSql(records);
    await runPooled(this.dataSource, sql, params);
  }
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
