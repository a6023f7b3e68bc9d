import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { replaceOnce } from './1765497600000-limit-retirement-bounds.js';
import { ANALYZE_THRESHOLD, setTargets } from './1765670400000-planner-statistics.js';
import { definitions as ledgerDefinitions, VIEW_AFTER } from './1765756800000-owned-budget-ledger.js';

/**
 * An owner's charge journal: the charges a finalization batch carries for buckets decided in memory
 * are ONE `limit_charge_journal` row of aligned arrays, whatever the number of buckets, where they were
 * a `limit_charge_runs` row per bucket. A batch of calls on 16 distinct buckets (a per-sender or
 * per-session limit) wrote 16 rows; it now writes one.
 *
 * Invariant: every entry of an owner's journal row is a charge of a bucket that owner still owns.
 * Handing buckets back (`helios_limit_demote`, a dead owner's takeover too) first turns the owner's
 * journal rows that hold any of them into runs, one per bucket (every entry of those rows, so no row
 * keeps an entry of a bucket no longer owned), and then expands those buckets' runs into
 * `limit_charges` as before. The owner also compacts its whole journal into runs now and then
 * (`helios_limit_compact_journal`, fenced), which bounds how much a hand-back or a takeover reads: a
 * run then holds a bucket's charges of that whole period, not of one batch.
 *
 * Compaction and hand-back each delete journal rows and insert runs in one statement (a data-modifying
 * CTE: one snapshot), so a journal row committed meanwhile is left for the next one, never deleted
 * unread. Processes still on the previous code write runs (`helios_limit_write_charges`, kept), which
 * every reader already reads.
 */
const JOURNAL_TABLE = `
CREATE TABLE "limit_charge_journal" (
  "owner" text NOT NULL,
  "id" bigint GENERATED ALWAYS AS IDENTITY,
  "bucket_ids" text[] NOT NULL,
  "reservation_ids" text[] NOT NULL,
  "amounts" numeric(1000, 0)[] NOT NULL,
  "at_ms" bigint[] NOT NULL,
  PRIMARY KEY ("owner", "id")
)`;

/** As PlannerStatistics set for the runs: no query estimates a selectivity of these arrays. */
export const JOURNAL_NO_STATISTICS: readonly (readonly [table: string, columns: readonly string[]])[] = [
  ['limit_charge_journal', ['bucket_ids', 'reservation_ids', 'amounts', 'at_ms']],
];
/** A busy table (a row per finalization batch, deleted within seconds): PlannerStatistics' threshold. */
export const JOURNAL_BUSY_TABLES = ['limit_charge_journal'];

/** The journal rows matching `where` (of `j`) deleted and made runs, one per bucket: one statement. */
const journalIntoRuns = (where: string): string => `
  WITH "gone" AS (
    DELETE FROM "limit_charge_journal" j WHERE ${where}
    RETURNING j."bucket_ids", j."reservation_ids", j."amounts", j."at_ms")
  INSERT INTO "limit_charge_runs" ("bucket_id", "last_ms", "reservation_ids", "amounts", "at_ms")
  SELECT e."b", max(e."t"), array_agg(e."r"), array_agg(e."a"), array_agg(e."t")
  FROM "gone" g, unnest(g."bucket_ids", g."reservation_ids", g."amounts", g."at_ms") AS e("b", "r", "a", "t")
  GROUP BY e."b"`;

/**
 * The charges a finalization carries (`[{"b": bucket, "r": reservation, "a": amount, "t": at_ms}]`),
 * all of buckets `p_owner` owns, as one journal row; ledger rows as `helios_limit_write_charges` writes
 * them. The caller's statement is fenced by the owner's key.
 */
const JOURNAL_CHARGES = `
CREATE FUNCTION "helios_limit_journal_charges"(p_owner text, p_charges jsonb, p_ledger jsonb)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(p_charges) > 0 THEN
    INSERT INTO "limit_charge_journal" ("owner", "bucket_ids", "reservation_ids", "amounts", "at_ms")
    SELECT p_owner, array_agg(c."b"), array_agg(c."r"), array_agg(c."a"), array_agg(c."t")
    FROM jsonb_to_recordset(p_charges) AS c("b" text, "r" text, "a" numeric, "t" bigint);
  END IF;
  RETURN "helios_limit_write_charges"('[]'::jsonb, p_ledger);
END $$`;

/** The owner's whole journal into runs, fenced by its keys. Returns the runs written. */
const COMPACT = `
CREATE FUNCTION "helios_limit_compact_journal"(p_owner text, p_keys bigint[])
RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  written bigint;
BEGIN
  PERFORM "helios_limit_fence"(p_keys);
  ${journalIntoRuns('j."owner" = p_owner')};
  GET DIAGNOSTICS written = ROW_COUNT;
  RETURN written;
END $$`;

const DEMOTE_ANCHOR = `  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM "helios_limit_write_charges"(`;

/** `helios_limit_demote` as OwnedBudgetLedger left it. */
function demoteBefore(): string {
  const edit = ledgerDefinitions().find(([before]) => before.includes('FUNCTION "helios_limit_demote"'));
  if (edit === undefined) throw new Error('OwnedBudgetLedger no longer edits helios_limit_demote');
  return edit[1];
}

function demoteAfter(): string {
  return replaceOnce(
    demoteBefore(),
    DEMOTE_ANCHOR,
    `  IF cardinality(ids) = 0 THEN RETURN; END IF;
  -- The owner's journal rows holding any of these buckets become runs (all their entries), expanded below.
  ${journalIntoRuns('j."owner" = p_owner AND j."bucket_ids" && ids')};
  PERFORM "helios_limit_write_charges"(`,
  );
}

const VIEW_WITH_JOURNAL = `${VIEW_AFTER}
  UNION ALL
  SELECT e."bucket_id", e."reservation_id", e."amount", e."at_ms"
  FROM "limit_charge_journal" j,
       unnest(j."bucket_ids", j."reservation_ids", j."amounts", j."at_ms") AS e("bucket_id", "reservation_id", "amount", "at_ms")`;

export class OwnerChargeJournal1765843200000 implements MigrationInterface {
  readonly name = 'OwnerChargeJournal1765843200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(JOURNAL_TABLE);
    for (const statement of setTargets(0, JOURNAL_NO_STATISTICS)) await queryRunner.query(statement);
    await queryRunner.query(
      `ALTER TABLE "limit_charge_journal" SET (autovacuum_analyze_threshold = ${ANALYZE_THRESHOLD})`,
    );
    await queryRunner.query(JOURNAL_CHARGES);
    await queryRunner.query(COMPACT);
    await queryRunner.query(demoteAfter());
    await queryRunner.query(VIEW_WITH_JOURNAL);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Every journal entry becomes a run of its bucket (still owned by the journal's owner).
    await queryRunner.query(journalIntoRuns('true'));
    await queryRunner.query(VIEW_AFTER);
    await queryRunner.query(demoteBefore());
    await queryRunner.query(`DROP FUNCTION "helios_limit_compact_journal"`);
    await queryRunner.query(`DROP FUNCTION "helios_limit_journal_charges"`);
    await queryRunner.query(`DROP TABLE "limit_charge_journal"`);
  }
}
