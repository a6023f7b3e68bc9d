/**
 * What the PostgreSQL audit sink adds to the AuditSink contract (store-contracts.int.test.ts runs that):
 * batching, the interval flush, draining on close, retry and quarantine of refused records, durability.
 */
import { type AuditRecord } from '@helios/governance';
import { auditRecord } from '@helios/governance/testing';
import { describe, expect, it, vi } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { findAuditRecord } from './audit-record-row.js';
import { PgAuditSink } from './pg-audit-sink.js';

const logger = () => ({
  warn: vi.fn<(message: string) => void>(),
  error: vi.fn<(message: string) => void>(),
});

describe.each(databaseTargets)('PgAuditSink on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);

  const stored = async (ids: readonly string[]): Promise<number> => {
    const rows = (await db.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_records WHERE id = ANY($1::uuid[])`,
      [ids],
    )) as { n: number }[];
    return rows[0]?.n ?? 0;
  };

  it('batches buffered records: one multi-row INSERT per 50 records', async () => {
    const own = await db.open(2);
    const sink = new PgAuditSink(own, { logger: logger(), flushIntervalMs: 60_000 });
    const statements = vi.spyOn(own, 'createQueryRunner');
    const records = Array.from({ length: 120 }, () => auditRecord());
    const ids = records.map((r) => r.id);
    for (const r of records.slice(0, 49)) await sink.append(r, 'buffered');
    expect(sink.queued).toBe(49);
    expect(await stored(ids)).toBe(0);
    // The 50th record triggers the flush without waiting for the interval.
    await sink.append(records[49] as AuditRecord, 'buffered');
    await vi.waitFor(async () => expect(await stored(ids)).toBe(50));
    expect(statements).toHaveBeenCalledTimes(1);
    // 70 more: whatever is queued when a flush runs goes out in INSERTs of at most 50 rows.
    for (const r of records.slice(50)) await sink.append(r, 'buffered');
    await sink.flush();
    expect(await stored(ids)).toBe(120);
    expect(statements).toHaveBeenCalledTimes(3);
    await sink.close();
  });

  it('flushes a partial batch once the interval has passed', async () => {
    const sink = new PgAuditSink(db.dataSource, { logger: logger(), flushIntervalMs: 100 });
    const records = Array.from({ length: 3 }, () => auditRecord());
    for (const r of records) await sink.append(r, 'buffered');
    expect(sink.queued).toBe(3);
    await vi.waitFor(async () => expect(await stored(records.map((r) => r.id))).toBe(3), { timeout: 2_000 });
    expect(sink.queued).toBe(0);
    await sink.close();
  });

  it('drains everything on close, and writes later records at once', async () => {
    const sink = new PgAuditSink(db.dataSource, { logger: logger(), flushIntervalMs: 60_000 });
    const records = Array.from({ length: 7 }, () => auditRecord());
    for (const r of records) await sink.append(r, 'buffered');
    expect(await stored(records.map((r) => r.id))).toBe(0);
    await sink.close();
    expect(await stored(records.map((r) => r.id))).toBe(7);
    const late = auditRecord();
    await sink.append(late, 'buffered');
    expect(await stored([late.id])).toBe(1);
  });

  it('retries a failed batch row by row, quarantines a record the table refuses, never throws', async () => {
    const log = logger();
    const sink = new PgAuditSink(db.dataSource, { logger: log, flushIntervalMs: 60_000, retryDelayMs: 1 });
    const good = [auditRecord(), auditRecord()];
    const poison = auditRecord({ toolInput: { text: 'nul \u0000 byte' } }); // jsonb refuses \u0000
    const hopeless = auditRecord({ id: 'not-a-uuid' }); // refused quarantined too: the id itself is bad
    for (const r of [good[0], poison, hopeless, good[1]] as AuditRecord[]) await sink.append(r, 'buffered');
    await expect(sink.flush()).resolves.toBeUndefined();
    expect(await stored(good.map((r) => r.id))).toBe(2);
    // The poisoned record is in the trail, without the payload the table refused, saying why.
    expect(await findAuditRecord(db.dataSource, poison.id)).toMatchObject({
      toolName: poison.toolName,
      toolInput: {},
      evidenceChain: { quarantine: { reason: 'the audit record could not be stored as it was' } },
    });
    expect(log.warn).toHaveBeenCalledWith(expect.stringContaining(`${poison.id} written quarantined`));
    expect(log.error).toHaveBeenCalledTimes(1);
    expect(log.error).toHaveBeenCalledWith(expect.stringContaining('lost after retry: not-a-uuid'));
  });

  it('retries an immediate record once, then lets the error reach the caller (who fails closed)', async () => {
    const log = logger();
    const sink = new PgAuditSink(db.dataSource, { logger: log, retryDelayMs: 1 });
    await expect(sink.append(auditRecord({ toolInput: { text: '\u0000' } }), 'immediate')).rejects.toThrow();
    expect(log.warn).toHaveBeenCalledTimes(1);
  });

  it('keeps records across a new DataSource (durability)', async () => {
    const sink = new PgAuditSink(db.dataSource, { logger: logger() });
    const kept = auditRecord();
    await sink.append(kept, 'buffered');
    await sink.close();
    const restarted = await db.open(2);
    expect(await findAuditRecord(restarted, kept.id)).toStrictEqual(kept);
  });
});
