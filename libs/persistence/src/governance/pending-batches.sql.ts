/**
 * The multi-row statements behind PgPendingEvaluationStore's group commit. Each takes parallel arrays
 * (one element per caller, UNNEST … WITH ORDINALITY keeps the callers' order) and does in ONE statement
 * what the single-row version did for one caller, with the same atomicity.
 *
 * The backlog is `pending_backlog` (admitted totals) minus `pending_backlog_freed` (finalized totals).
 * Admission locks only the admitted row, finalization only the freed row (then never waits for the
 * other). Lock order in finalization: pending rows in evaluation-id order, then the freed row; batches
 * of several processes therefore cannot deadlock on each other.
 */
import { type NamedStatement } from './sql.js';

/**
 * Adds the rows of CTE `rows` (their count and `bytes`) to the one-row total `table`'s
 * `<prefix>_count` and `<prefix>_bytes`; an empty batch leaves the row untouched (no lock, no write).
 */
function addToTotal(table: string, prefix: string, rows: string): string {
  return `UPDATE "${table}" SET
    "${prefix}_count" = "${prefix}_count" + (SELECT count(*) FROM "${rows}"),
    "${prefix}_bytes" = "${prefix}_bytes" + (SELECT coalesce(sum("bytes"), 0) FROM "${rows}")
  WHERE EXISTS (SELECT 1 FROM "${rows}")
  RETURNING 1`;
}

/** The current backlog, for the pre-check and reporting. */
export const BACKLOG: NamedStatement = {
  name: 'helios_pending_backlog',
  text: `
SELECT b."admitted_count" - f."freed_count" AS "count", b."admitted_bytes" - f."freed_bytes" AS "bytes"
FROM "pending_backlog" b CROSS JOIN "pending_backlog_freed" f`,
};

/**
 * Admission: the admitted row is locked, then the callers are admitted one after another in order, each
 * iff both caps still hold after the ones admitted before it (a recursive walk: exactly what the same
 * calls one statement each would give), the admitted rows inserted and the total bumped by their sum.
 * The freed total is read unlocked: a finalization committing meanwhile only makes it under-state the
 * room, so the caps can be missed by a hair at worst on the safe side, never exceeded.
 * Params: ids, payloads (ONE JSON array: as a jsonb[] every payload's quotes were escaped again into
 * an array literal, ~40 µs of the API's CPU per batch of 16), bytes, created, expires, latches,
 * maxCount, maxBytes, the limit authority's fence keys (limit-authority/lease.ts). Returns the
 * admitted ids, each with the backlog's count and bytes after the batch.
 */
export const ADMIT_BATCH: NamedStatement = {
  name: 'helios_admit_batch',
  text: `
WITH RECURSIVE "input" AS (
  SELECT * FROM ROWS FROM (
    unnest($1::text[]), jsonb_array_elements($2::jsonb), unnest($3::int[]), unnest($4::bigint[]),
    unnest($5::bigint[]), unnest($6::jsonb[])
  ) WITH ORDINALITY AS t("evaluation_id", "payload", "bytes", "created_at_ms", "expires_at_ms", "commit_latch", "ord")
  -- Once, before any row: holds decided in this process's memory land only while it still owns them.
  WHERE (SELECT "helios_limit_fence"($9::bigint[]))
), "admitted_total" AS (
  SELECT "admitted_count", "admitted_bytes" FROM "pending_backlog" FOR UPDATE
), "backlog" AS (
  SELECT a."admitted_count" - f."freed_count" AS "count", a."admitted_bytes" - f."freed_bytes" AS "bytes"
  FROM "admitted_total" a CROSS JOIN "pending_backlog_freed" f
), "walk" ("ord", "count", "bytes", "admitted") AS (
  SELECT 0::bigint, "count", "bytes", false FROM "backlog"
  UNION ALL
  SELECT i."ord",
         w."count" + CASE WHEN f."fits" THEN 1 ELSE 0 END,
         w."bytes" + CASE WHEN f."fits" THEN i."bytes" ELSE 0 END,
         f."fits"
  FROM "walk" w
  JOIN "input" i ON i."ord" = w."ord" + 1
  CROSS JOIN LATERAL (SELECT w."count" < $7::int AND w."bytes" + i."bytes" <= $8::bigint AS "fits") f
), "admitted" AS (
  INSERT INTO "pending_evaluations"
    ("evaluation_id", "payload", "bytes", "created_at_ms", "expires_at_ms", "commit_latch")
  SELECT i."evaluation_id", i."payload", i."bytes", i."created_at_ms", i."expires_at_ms", i."commit_latch"
  FROM "input" i JOIN "walk" w ON w."ord" = i."ord" AND w."admitted"
  ORDER BY i."ord"
  RETURNING "evaluation_id", "bytes"
), "bumped" AS (
  ${addToTotal('pending_backlog', 'admitted', 'admitted')}
)
SELECT a."evaluation_id", w."count" AS "backlog_count", w."bytes" AS "backlog_bytes"
FROM "admitted" a CROSS JOIN (SELECT "count", "bytes" FROM "walk" ORDER BY "ord" DESC LIMIT 1) w`,
};

const TOMBSTONE_COLUMNS = `"evaluation_id", "audit_record_id", "finalized_by", "payload_hash", "expires_at_ms"`;
const UNNEST_TOMBSTONES = `unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[])
    AS t(${TOMBSTONE_COLUMNS})`;
const ON_TOMBSTONE_CONFLICT = `ON CONFLICT ("evaluation_id") DO UPDATE SET
    "audit_record_id" = EXCLUDED."audit_record_id", "finalized_by" = EXCLUDED."finalized_by",
    "payload_hash" = EXCLUDED."payload_hash", "expires_at_ms" = EXCLUDED."expires_at_ms",
    "record" = EXCLUDED."record"`;
/** $6: the records, a JSON array of `audit_records` rows (auditRow). */
const RECORDS = `jsonb_populate_recordset(NULL::"audit_records", $6::jsonb)`;

/**
 * Finalization: the callers' pending rows that still exist (and carry no commit latch of another payload)
 * are locked (id order), deleted, their count
 * and bytes added to the freed total, a tombstone written for each, and each one's record inserted into
 * the audit trail, all in one transaction: a finalized evaluation always has its record, and the
 * tombstone needs no write-ahead copy of it. A row another finalizer removed first is simply absent
 * (and its caller's record not written: the winner's stands).
 *
 * Only the deleting statement writes an id's tombstone and record, and an id is deleted once, so
 * neither insert can meet an existing row: they are plain inserts, without ON CONFLICT, whose
 * speculative insertion cost an extra WAL record and index probe per row. Were that ever broken, the
 * statement fails, its batch is retried one caller at a time, and that caller gets an error: nothing
 * is overwritten. The limit authority's charges for these calls (limit-authority/deferred-charges.ts)
 * are written first, whether or not this statement finalizes the call: the call ran, and its charge
 * was counted when /audit committed it. Params: tombstone columns as arrays, records, fence keys,
 * charges, ledger rows, their owner (the charges are one row of its journal). Returns the finalized ids.
 */
export const FINALIZE_BATCH: NamedStatement = {
  name: 'helios_finalize_batch',
  text: `
WITH "input" AS (
  SELECT * FROM ${UNNEST_TOMBSTONES}
  -- Once, before any row: the charges the limit authority decided in memory for these calls, fenced.
  WHERE (SELECT "helios_limit_fence"($7::bigint[])
                 AND "helios_limit_journal_charges"($10::text, $8::jsonb, $9::jsonb))
), "locked" AS (
  -- A row another process's /audit latched with another payload stays: that /audit gets a conflict.
  SELECT p."evaluation_id" FROM "pending_evaluations" p JOIN "input" i ON i."evaluation_id" = p."evaluation_id"
  WHERE p."evaluation_id" = ANY($1::text[])
    AND (i."finalized_by" <> 'audit' OR p."commit_latch" IS NULL
         OR p."commit_latch"->>'payloadHash' IS NOT DISTINCT FROM i."payload_hash")
  ORDER BY p."evaluation_id" FOR UPDATE OF p
), "gone" AS (
  -- By the array, not a join: a join may be planned as a scan of the whole table.
  DELETE FROM "pending_evaluations" WHERE "evaluation_id" = ANY(ARRAY(SELECT "evaluation_id" FROM "locked"))
  RETURNING "evaluation_id", "bytes"
), "freed" AS (
  ${addToTotal('pending_backlog_freed', 'freed', 'gone')}
), "kept" AS (
  INSERT INTO "evaluation_tombstones" (${TOMBSTONE_COLUMNS}, "record")
  SELECT i.*, NULL::jsonb FROM "input" i JOIN "gone" g ON g."evaluation_id" = i."evaluation_id"
  RETURNING 1
), "trail" AS (
  INSERT INTO "audit_records"
  SELECT r.* FROM ${RECORDS} r
  JOIN "input" i ON i."audit_record_id" = r."id"::text
  JOIN "gone" g ON g."evaluation_id" = i."evaluation_id"
  RETURNING 1
)
SELECT "evaluation_id" FROM "gone"`,
};

/**
 * Tombstones of decisions terminal at /evaluate (no pending row), with their records inserted into the
 * audit trail in the same statement. Params: tombstone columns as arrays, records.
 */
export const REMEMBER_BATCH: NamedStatement = {
  name: 'helios_remember_batch',
  text: `
WITH "trail" AS (
  INSERT INTO "audit_records" SELECT r.* FROM ${RECORDS} r ON CONFLICT ("id") DO NOTHING RETURNING 1
)
INSERT INTO "evaluation_tombstones" (${TOMBSTONE_COLUMNS}, "record")
SELECT *, NULL::jsonb FROM ${UNNEST_TOMBSTONES}
${ON_TOMBSTONE_CONFLICT}`,
};

/**
 * What /audit reads first, for all callers at once: their tombstones and their pending rows, each by
 * its primary key index (a join could be planned as a whole-table scan), in one snapshot. Expiry of a
 * tombstone is judged per caller. Params: ids.
 */
export const LOOKUP_BATCH: NamedStatement = {
  name: 'helios_lookup_batch',
  text: `
SELECT 't' AS "kind", "evaluation_id", "audit_record_id", "finalized_by", "payload_hash", "expires_at_ms",
       NULL::jsonb AS "payload", NULL::jsonb AS "commit_latch"
FROM "evaluation_tombstones" WHERE "evaluation_id" = ANY($1::text[])
UNION ALL
SELECT 'p', "evaluation_id", NULL, NULL, NULL, NULL, "payload", "commit_latch"
FROM "pending_evaluations" WHERE "evaluation_id" = ANY($1::text[])`,
};

/**
 * Commit latches of a batch of evaluations: each pending row keeps what its limit commit answered, so a
 * retried /audit skips straight past the commit. Params: evaluation ids, latches (jsonb text), in step.
 */
export const LATCH_BATCH: NamedStatement = {
  name: 'helios_latch_batch',
  text: `
UPDATE "pending_evaluations" p SET "commit_latch" = l."latch"
FROM unnest($1::text[], $2::jsonb[]) AS l("evaluation_id", "latch")
-- By the array too, not only the join: a join alone may be planned as a scan of the whole table.
WHERE p."evaluation_id" = ANY($1::text[]) AND p."evaluation_id" = l."evaluation_id"`,
};
