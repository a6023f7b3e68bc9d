/**
 * The retention sweep: the only deletion of audit records (the table's trigger refuses every other),
 * plus the ledger and the limit store's history past the same horizon. Deletes in batches, each its
 * own short transaction, so a large backlog never holds locks or bloats one transaction.
 * `budget_meta` is never swept: epochs must survive so an unchanged budget keeps its pot.
 */
import { type DataSource } from 'typeorm';
import { inTransaction, run, runPooled } from './sql.js';

export interface RetentionSweepOptions {
  /** Rows older than this instant (epoch ms; `created_at` for audit records) are deleted. */
  readonly cutoffMs: number;
  /** Rows per delete statement (default 5,000). */
  readonly batchSize?: number;
}

export interface RetentionSweepResult {
  readonly auditRecords: number;
  readonly budgetEvents: number;
  readonly limitCharges: number;
  readonly limitCommits: number;
  readonly limitBuckets: number;
  readonly approvalTickets: number;
}

export async function sweepGovernanceRetention(
  dataSource: DataSource,
  options: RetentionSweepOptions,
): Promise<RetentionSweepResult> {
  const batch = options.batchSize ?? 5_000;
  // A retention longer than the time since 1970 (policies accept up to ~285,000 years) puts the cutoff
  // before any row, and before what PostgreSQL's timestamps reach: the epoch deletes the same nothing.
  const cutoff = Math.max(0, options.cutoffMs);
  const auditRecords = await inBatches(async () =>
    inTransaction(dataSource, async (runner) => {
      // Declares this transaction the sweep; the append-only trigger lets its DELETE through.
      await run(runner, `SET LOCAL helios.audit_sweep = 'on'`);
      return (
        await run(
          runner,
          `DELETE FROM "audit_records" WHERE "id" IN (
             SELECT "id" FROM "audit_records" WHERE "created_at" < to_timestamp($1::bigint / 1000.0) LIMIT $2)`,
          [cutoff, batch],
        )
      ).affected;
    }),
  );
  const sweep = (table: string, key: string, column: string, extra = ''): Promise<number> =>
    inBatches(async () =>
      inTransaction(
        dataSource,
        async (runner) =>
          (
            await run(
              runner,
              `DELETE FROM "${table}" WHERE "${key}" IN (
                 SELECT "${key}" FROM "${table}" WHERE "${column}" < $1::bigint ${extra} LIMIT $2)`,
              [cutoff, batch],
            )
          ).affected,
      ),
    );
  const budgetEvents = await sweep('budget_events', 'id', 'timestamp_ms');
  // Through the limit functions: each deleted charge leaves its bucket's running sum too.
  const limitCharges = await inBatches(
    async () =>
      (
        await runPooled<{ deleted: number }>(
          dataSource,
          `SELECT "helios_limit_sweep_charges"($1::bigint, $2::int) AS "deleted"`,
          [cutoff, batch],
        )
      ).rows[0]?.deleted ?? 0,
  );
  const limitCommits = await sweep('limit_commits', 'reservation_id', 'committed_at_ms');
  // A ticket outlives its evaluation by far less than any retention; only decided or dead ones go.
  const approvalTickets = await sweep(
    'approval_tickets',
    'id',
    'requested_at_ms',
    `AND ("status" <> 'pending' OR "timeout_at_ms" < $1::bigint)`,
  );
  // Buckets idle since the cutoff with nothing left in them are collected; locked ones (in use) are skipped.
  const limitBuckets = await inBatches(async () =>
    inTransaction(
      dataSource,
      async (runner) =>
        (
          await run(
            runner,
            `DELETE FROM "limit_buckets" WHERE "bucket_id" IN (
               SELECT "bucket_id" FROM "limit_buckets" b
               WHERE b."last_activity_ms" < $1::bigint
                 AND b."hold_count" = 0 AND b."charge_count" = 0 AND b."owner" IS NULL
               LIMIT $2 FOR UPDATE SKIP LOCKED)`,
            [cutoff, batch],
          )
        ).affected,
    ),
  );
  return { auditRecords, budgetEvents, limitCharges, limitCommits, limitBuckets, approvalTickets };
}

async function inBatches(deleteBatch: () => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await deleteBatch();
    total += deleted;
    if (deleted === 0) return total;
  }
}
