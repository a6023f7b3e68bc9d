/**
 * Recovery of the audit trail from the tombstones' write-ahead copies. A finalization stores the record
 * it wrote with its tombstone; the sink may still have had it buffered when the process died. This
 * writes every such record that is not in `audit_records` yet (inserts never conflict: first write wins).
 * Run it at start (before serving) and before tombstones are pruned. The read goes through the entities
 * (query builder); the write is the sink's multi-row INSERT.
 */
import { type AuditRecord } from '@helios/governance';
import { type DataSource } from 'typeorm';
import { insertAuditRecordsSql } from './audit-record-row.js';
import { AuditRecordEntity } from './entities/audit-record.entity.js';
import { EvaluationTombstoneEntity, type EvaluationTombstoneRow } from './entities/pending.entities.js';
import { runPooled } from './sql.js';

const BATCH = 200;

export interface RecoverOptions {
  /** Only tombstones expiring at or before this instant (pruning); all of them when absent (start). */
  readonly expiredBeforeMs?: number;
}

/** Returns how many records were missing and have now been written. */
export async function recoverAuditRecords(
  dataSource: DataSource,
  options: RecoverOptions = {},
): Promise<number> {
  let written = 0;
  let after = '';
  for (;;) {
    const rows = await unrecordedTombstones(dataSource, after, options.expiredBeforeMs);
    if (rows.length === 0) return written;
    const { sql, params } = insertAuditRecordsSql(rows.map((row) => row.record as AuditRecord));
    await runPooled(dataSource, sql, params);
    written += rows.length;
    after = rows[rows.length - 1]?.evaluationId ?? after;
  }
}

/** The next batch of tombstones (by id, after `after`) whose record copy is not in the trail yet. */
function unrecordedTombstones(
  dataSource: DataSource,
  after: string,
  expiredBeforeMs: number | undefined,
): Promise<EvaluationTombstoneRow[]> {
  const query = dataSource
    .getRepository(EvaluationTombstoneEntity)
    .createQueryBuilder('t')
    .select(['t.evaluationId', 't.record'])
    // An anti-join: tombstones whose record is not in the trail (PostgreSQL plans it as NOT EXISTS).
    .leftJoin(AuditRecordEntity.options.name, 'a', 'a.id = CAST(t.auditRecordId AS uuid)')
    .where('a.id IS NULL')
    .andWhere('t.record IS NOT NULL')
    .andWhere('t.evaluationId > :after', { after })
    .orderBy('t.evaluationId')
    .limit(BATCH);
  if (expiredBeforeMs !== undefined) query.andWhere('t.expiresAtMs <= :expiredBeforeMs', { expiredBeforeMs });
  return query.getMany();
}
