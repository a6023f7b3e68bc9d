import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { boundedDefinitions, orReplace, replaceOnce } from './1765497600000-limit-retirement-bounds.js';
import {
  CLAIM,
  DEMOTE,
  ENTRIES_VIEW,
  sharedEdits,
  WRITE_CHARGES,
} from './1765584000000-limit-local-authority.js';
import { setTargets } from './1765670400000-planner-statistics.js';

/**
 * An owned budget pot's charges are its ledger rows: a budget charge decided in memory writes its
 * `budget_events` row (the ledger, written anyway) and no `limit_charge_runs` entry beside it. The
 * ledger row already holds the pot, the amount and the instant; it now also names its reservation.
 *
 * Which ledger rows are the owner's: at claim, a budget bucket's row records `ledger_mark`, the largest
 * `budget_events.id` then committed. The shared path writes a pot's ledger rows under the bucket's row
 * lock, which the claim holds, so every earlier row of the pot is committed and at or below the mark;
 * the owner's rows are inserted later, so their ids are above it (identity values only grow). While
 * owned, the shared path refuses the bucket (HL001), so the pot's rows above the mark are the owner's.
 * Handing the bucket back (`helios_limit_demote`, also a dead owner's takeover) turns those still in
 * the window into `limit_charges` rows and clears the mark. A pot's rows are found by its index
 * (`budget_events_pot`: name, epoch, key, instant); the name is the bucket key's second ':' field
 * (`budget:<name>:…`, governance's budgetKey; budget names have no ':'). Rows without a reservation
 * (written by a process that still wrote runs) are not charges here: their runs are.
 *
 * The ledger rows are history, so they stay past the window and nothing retires them while owned; the
 * retention sweep's horizon bounds them as it bounds `limit_charges` (a retention shorter than a budget
 * window forgets older charges either way).
 */
export const LEDGER_NO_STATISTICS: readonly (readonly [table: string, columns: readonly string[]])[] = [
  ['budget_events', ['reservation_id']],
];

/** `lb`'s pot's ledger rows written while it was owned (`e`), for a join from `limit_buckets lb`. */
const OWNED_POT_ROWS = `"budget_events" e
    ON lb."family" = 'budget' AND e."budget_name" = split_part(lb."bucket_key", ':', 2)
   AND e."epoch" = lb."epoch" AND e."bucket_key" = lb."bucket_key" AND e."id" > lb."ledger_mark"
   AND e."reservation_id" IS NOT NULL`;

const VIEW_BEFORE = replaceOnce(ENTRIES_VIEW, 'CREATE VIEW', 'CREATE OR REPLACE VIEW');
export const VIEW_AFTER = `${VIEW_BEFORE}
  UNION ALL
  SELECT lb."bucket_id", e."reservation_id", e."amount", e."timestamp_ms"
  FROM "limit_buckets" lb JOIN ${OWNED_POT_ROWS}
  WHERE lb."ledger_mark" IS NOT NULL`;

/** The shared path's `helios_limit_apply`, as the local-authority migration left it. */
function applyBefore(): string {
  const { APPLY } = boundedDefinitions();
  const edit = sharedEdits().find(([before]) => before === APPLY);
  if (edit === undefined) throw new Error('the local-authority migration no longer edits helios_limit_apply');
  return edit[1];
}

const LEDGER_COLUMNS = `"tool_name", "origin", "audit_record_id", "timestamp_ms")`;

/** Each edited definition before and after (each edit must match once, so the change reads as a diff). */
export function definitions(): readonly (readonly [before: string, after: string])[] {
  const edit = (text: string, edits: readonly (readonly [string, string])[]): readonly [string, string] => [
    orReplace(text),
    orReplace(edits.reduce((body, [from, to]) => replaceOnce(body, from, to), text)),
  ];
  const apply = applyBefore();
  return [
    edit(WRITE_CHARGES, [
      [LEDGER_COLUMNS, `"tool_name", "origin", "audit_record_id", "timestamp_ms", "reservation_id")`],
      [`l."audit_record_id", l."timestamp_ms"`, `l."audit_record_id", l."timestamp_ms", l."reservation_id"`],
      [`"timestamp_ms" bigint);`, `"timestamp_ms" bigint, "reservation_id" text);`],
    ]),
    // The shared path's ledger rows name their reservation too (the same column means the same thing).
    edit(apply, [
      [LEDGER_COLUMNS, `"tool_name", "origin", "audit_record_id", "timestamp_ms", "reservation_id")`],
      [
        `p_op_tool[c.o], p_op_origin[c.o], p_op_audit[c.o], p_now`,
        `p_op_tool[c.o], p_op_origin[c.o], p_op_audit[c.o], p_now, p_op_res[c.o]`,
      ],
    ]),
    edit(CLAIM, [
      [
        `UPDATE "limit_buckets" lb SET "owner" = p_owner, "demoted_at_ms" = NULL, "live_until_ms" = 0`,
        `UPDATE "limit_buckets" lb SET "owner" = p_owner, "demoted_at_ms" = NULL, "live_until_ms" = 0,
      -- Every ledger row of this pot so far is committed (see the migration's comment): the owner's come after.
      "ledger_mark" = CASE WHEN b."family" = 'budget' THEN coalesce((SELECT max(e."id") FROM "budget_events" e), 0) END`,
      ],
    ]),
    edit(DEMOTE, [
      [
        `DELETE FROM "limit_charge_runs" r WHERE r."bucket_id" = ANY(ids);`,
        `DELETE FROM "limit_charge_runs" r WHERE r."bucket_id" = ANY(ids);
  -- An owned pot's charges are its ledger rows since the claim; those that left a sliding window stay history.
  INSERT INTO "limit_charges" ("bucket_id", "reservation_id", "amount", "at_ms")
  SELECT lb."bucket_id", e."reservation_id", e."amount", e."timestamp_ms"
  FROM "limit_buckets" lb JOIN ${OWNED_POT_ROWS}
   AND (lb."window_type" <> 'sliding' OR e."timestamp_ms" > p_now - lb."window_ms")
  WHERE lb."bucket_id" = ANY(ids) AND lb."ledger_mark" IS NOT NULL;`,
      ],
      [
        `"owner" = NULL, "demoted_at_ms" = p_demoted_at`,
        `"owner" = NULL, "demoted_at_ms" = p_demoted_at, "ledger_mark" = NULL`,
      ],
    ]),
  ];
}

export class OwnedBudgetLedger1765756800000 implements MigrationInterface {
  readonly name = 'OwnedBudgetLedger1765756800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "budget_events" ADD COLUMN "reservation_id" text`);
    for (const statement of setTargets(0, LEDGER_NO_STATISTICS)) await queryRunner.query(statement);
    await queryRunner.query(`ALTER TABLE "limit_buckets" ADD COLUMN "ledger_mark" bigint`);
    for (const [, after] of definitions()) await queryRunner.query(after);
    await queryRunner.query(VIEW_AFTER);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Owned pots' charges become runs again, one per pot, as the previous functions keep them.
    await queryRunner.query(`
      INSERT INTO "limit_charge_runs" ("bucket_id", "last_ms", "reservation_ids", "amounts", "at_ms")
      SELECT lb."bucket_id", max(e."timestamp_ms"), array_agg(e."reservation_id"), array_agg(e."amount"),
             array_agg(e."timestamp_ms")
      FROM "limit_buckets" lb JOIN ${OWNED_POT_ROWS}
      WHERE lb."ledger_mark" IS NOT NULL GROUP BY lb."bucket_id"`);
    await queryRunner.query(VIEW_BEFORE);
    for (const [before] of definitions()) await queryRunner.query(before);
    await queryRunner.query(`ALTER TABLE "limit_buckets" DROP COLUMN "ledger_mark"`);
    await queryRunner.query(`ALTER TABLE "budget_events" DROP COLUMN "reservation_id"`);
  }
}
