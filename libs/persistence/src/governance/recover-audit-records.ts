/**
 * Recovery of the audit trail from the tombstones' write-ahead copies. A finalization stores the record
 * it wrote with its tombstone; the sink may still have had it buffered when the process died. This
 * writes every such record that is not in `audit_records` yet (inserts never conflict: first write wins).
 * Run it at start (before serving) and before tombstones are pruned.
 */
import { type AuditRecord } from '@helios/governance';
import { type DataSource } from 'typeorm';
import { insertAuditRecordsSql } from './audit-record-row.js';
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
    const { rows } = await runPooled<{ evaluation_id: string; record: AuditRecord }>(
      dataSource,
      `SELECT t."evaluation_id", t."record" FROM "evaluation_tombstones" t
       WHERE t."record" IS NOT NULL AND t."evaluation_id" > $1
         AND ($2::bigint IS NULL OR t."expires_at_ms" <= $2::bigint)
         AND NOT EXISTS (SELECT 1 FROM "audit_records" a WHERE a."id" = t."audit_record_id"::uuid)
       ORDER BY t."evaluation_id" LIMIT ${BATCH}`,
      [after, options.expiredBeforeMs ?? null],
    );
    if (rows.length === 0) return written;
    const { sql, params } = insertAuditRecordsSql(rows.map((row) => row.record));
    await runPooled(dataSource, sql, params);
    written += rows.length;
    after = rows[rows.length - 1]?.evaluation_id ?? after;
  }
}
