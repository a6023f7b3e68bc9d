/**
 * Pending evaluations and tombstones on PostgreSQL: an entry is a row written before /evaluate answers,
 * so after a crash every evaluation id ever returned is either finalized (tombstone) or found by
 * `due()` and expired. Each operation is ONE statement (data-modifying CTEs), hence atomic without an
 * explicit transaction: admission tests and bumps the backlog counter row in the statement that inserts
 * the entry, and finalization deletes the entry, frees its bytes and writes the tombstone together.
 */
import {
  type BacklogCaps,
  type CommitLatch,
  type PendingEvaluation,
  type PendingEvaluationStore,
  type Tombstone,
} from '@helios/governance';
import { type DataSource } from 'typeorm';
import { decodePending, encodePending, type EncodedPending } from './pending-codec.js';
import { recoverAuditRecords } from './recover-audit-records.js';
import { runPooled } from './sql.js';

interface PendingRow {
  readonly payload: EncodedPending;
  readonly commit_latch: CommitLatch | null;
}

interface TombstoneRow {
  readonly evaluation_id: string;
  readonly audit_record_id: string;
  readonly finalized_by: Tombstone['finalizedBy'];
  readonly payload_hash: string | null;
  readonly expires_at_ms: string;
}

const UPSERT_TOMBSTONE = `INSERT INTO "evaluation_tombstones"
    ("evaluation_id", "audit_record_id", "finalized_by", "payload_hash", "expires_at_ms", "record")`;
const ON_TOMBSTONE_CONFLICT = `ON CONFLICT ("evaluation_id") DO UPDATE SET
    "audit_record_id" = EXCLUDED."audit_record_id", "finalized_by" = EXCLUDED."finalized_by",
    "payload_hash" = EXCLUDED."payload_hash", "expires_at_ms" = EXCLUDED."expires_at_ms",
    "record" = EXCLUDED."record"`;

export class PgPendingEvaluationStore implements PendingEvaluationStore {
  constructor(private readonly dataSource: DataSource) {}

  async hasRoom(bytes: number, caps: BacklogCaps): Promise<boolean> {
    const { rows } = await runPooled<{ ok: boolean }>(
      this.dataSource,
      `SELECT "count" < $1 AND "bytes" + $2 <= $3 AS "ok" FROM "pending_backlog"`,
      [caps.maxCount, bytes, caps.maxBytes],
    );
    return rows[0]?.ok === true;
  }

  async admit(entry: PendingEvaluation, caps: BacklogCaps): Promise<boolean> {
    // The UPDATE locks the counter row, so concurrent admissions (any process) re-test the caps in turn.
    const { rows } = await runPooled(
      this.dataSource,
      `WITH "slot" AS (
         UPDATE "pending_backlog" SET "count" = "count" + 1, "bytes" = "bytes" + $2::bigint
         WHERE "count" < $3::int AND "bytes" + $2::bigint <= $4::bigint RETURNING 1
       )
       INSERT INTO "pending_evaluations"
         ("evaluation_id", "payload", "bytes", "created_at_ms", "expires_at_ms", "commit_latch")
       SELECT $1::text, $5::jsonb, $2::int, $6::bigint, $7::bigint, $8::jsonb FROM "slot"
       RETURNING 1`,
      [
        entry.evaluationId,
        entry.bytes,
        caps.maxCount,
        caps.maxBytes,
        JSON.stringify(encodePending(entry)),
        entry.createdAtMs,
        entry.expiresAtMs,
        entry.commit === undefined ? null : JSON.stringify(entry.commit),
      ],
    );
    return rows.length === 1;
  }

  async get(evaluationId: string): Promise<PendingEvaluation | undefined> {
    const { rows } = await runPooled<PendingRow>(
      this.dataSource,
      `SELECT "payload", "commit_latch" FROM "pending_evaluations" WHERE "evaluation_id" = $1`,
      [evaluationId],
    );
    const row = rows[0];
    return row === undefined ? undefined : decodePending(row.payload, row.commit_latch);
  }

  async latchCommit(evaluationId: string, latch: CommitLatch): Promise<void> {
    await runPooled(
      this.dataSource,
      `UPDATE "pending_evaluations" SET "commit_latch" = $2::jsonb WHERE "evaluation_id" = $1`,
      [evaluationId, JSON.stringify(latch)],
    );
  }

  async finalize(tombstone: Tombstone): Promise<boolean> {
    // Two finalizers of one id: the second waits on the row lock, then deletes nothing and gets false.
    const { rows } = await runPooled<{ n: number }>(
      this.dataSource,
      `WITH "gone" AS (
         DELETE FROM "pending_evaluations" WHERE "evaluation_id" = $1 RETURNING "bytes"
       ), "freed" AS (
         UPDATE "pending_backlog" SET "count" = "count" - 1, "bytes" = "bytes" - (SELECT "bytes" FROM "gone")
         WHERE EXISTS (SELECT 1 FROM "gone") RETURNING 1
       ), "kept" AS (
         ${UPSERT_TOMBSTONE}
         SELECT $1::text, $2::text, $3::text, $4::text, $5::bigint, $6::jsonb WHERE EXISTS (SELECT 1 FROM "gone")
         ${ON_TOMBSTONE_CONFLICT}
         RETURNING 1
       )
       SELECT count(*)::int AS "n" FROM "gone"`,
      tombstoneParams(tombstone),
    );
    return rows[0]?.n === 1;
  }

  async remember(tombstone: Tombstone): Promise<void> {
    await runPooled(
      this.dataSource,
      `${UPSERT_TOMBSTONE} VALUES ($1, $2, $3, $4, $5, $6::jsonb) ${ON_TOMBSTONE_CONFLICT}`,
      tombstoneParams(tombstone),
    );
  }

  async tombstone(evaluationId: string, nowMs: number): Promise<Tombstone | undefined> {
    const { rows } = await runPooled<TombstoneRow>(
      this.dataSource,
      `SELECT * FROM "evaluation_tombstones" WHERE "evaluation_id" = $1 AND "expires_at_ms" > $2`,
      [evaluationId, nowMs],
    );
    const row = rows[0];
    return row === undefined
      ? undefined
      : {
          evaluationId: row.evaluation_id,
          auditRecordId: row.audit_record_id,
          finalizedBy: row.finalized_by,
          payloadHash: row.payload_hash,
          expiresAtMs: Number(row.expires_at_ms),
        };
  }

  async due(nowMs: number, limit: number): Promise<readonly PendingEvaluation[]> {
    const { rows } = await runPooled<PendingRow>(
      this.dataSource,
      `SELECT "payload", "commit_latch" FROM "pending_evaluations"
       WHERE "expires_at_ms" <= $1 ORDER BY "seq" LIMIT $2`,
      [nowMs, limit],
    );
    return rows.map((row) => decodePending(row.payload, row.commit_latch));
  }

  async pruneTombstones(nowMs: number): Promise<void> {
    // A tombstone is the last write-ahead copy of its record: make sure the record is in the trail first.
    await recoverAuditRecords(this.dataSource, { expiredBeforeMs: nowMs });
    await runPooled(this.dataSource, `DELETE FROM "evaluation_tombstones" WHERE "expires_at_ms" <= $1`, [
      nowMs,
    ]);
  }

  /** Count and bytes currently pending (tests, health). */
  async backlog(): Promise<{ readonly count: number; readonly bytes: number }> {
    const { rows } = await runPooled<{ count: number; bytes: string }>(
      this.dataSource,
      `SELECT "count", "bytes" FROM "pending_backlog"`,
    );
    return { count: rows[0]?.count ?? 0, bytes: Number(rows[0]?.bytes ?? 0) };
  }
}

function tombstoneParams(tombstone: Tombstone): unknown[] {
  return [
    tombstone.evaluationId,
    tombstone.auditRecordId,
    tombstone.finalizedBy,
    tombstone.payloadHash,
    tombstone.expiresAtMs,
    tombstone.record === undefined ? null : JSON.stringify(tombstone.record),
  ];
}
