import { type MigrationInterface, type QueryRunner } from 'typeorm';

/** Every column that holds money: charges, holds and the budget ledger (limits live in the policy). */
const MONEY_COLUMNS = [
  ['limit_holds', 'amount'],
  ['limit_charges', 'amount'],
  ['budget_events', 'amount'],
] as const;

/**
 * Money of any size. Amounts stay integer micro-units, but a `bigint` stopped at 9,223,372,036,854.775807
 * of the currency, so a larger charge (an `actual_amount` of 1e20) was refused and its call's record lost;
 * the reference takes any finite non-negative number.
 *
 * `numeric(1000, 0)`, not plain `numeric`: scale 0 makes "whole micro-units" part of the type, so no row
 * can hold a fraction of one; 1,000 digits (PostgreSQL's largest declared precision) is over three times
 * the 315 digits of the largest finite JSON amount in micro-units (`Number.MAX_VALUE` × 10^6), so no
 * amount a caller can send is refused. Sums (`sum(amount)`) are unconstrained `numeric`, exact at any
 * size. The `>= 0` CHECKs and the `INCLUDE ("amount")` index carry over (the index is rebuilt).
 */
export class MoneyNumeric1764979200000 implements MigrationInterface {
  readonly name = 'MoneyNumeric1764979200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of MONEY_COLUMNS) {
      await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" TYPE numeric(1000, 0)`);
    }
  }

  /** Refuses, changing nothing, while any amount is past what a bigint holds: money is never truncated. */
  async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of MONEY_COLUMNS) {
      await queryRunner.query(`
        DO $$ BEGIN
          IF EXISTS (SELECT 1 FROM "${table}" WHERE "${column}" > 9223372036854775807) THEN
            RAISE EXCEPTION '${table}.${column} holds amounts larger than a bigint; delete them before reverting';
          END IF;
        END $$`);
    }
    for (const [table, column] of MONEY_COLUMNS) {
      await queryRunner.query(`ALTER TABLE "${table}" ALTER COLUMN "${column}" TYPE bigint`);
    }
  }
}
