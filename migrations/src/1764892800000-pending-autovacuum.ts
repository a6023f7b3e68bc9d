import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `pending_evaluations` is a queue: every evaluate inserts a row and its audit deletes it, so under load
 * it holds a few thousand live rows among a stream of dead ones. PostgreSQL's default autovacuum
 * trigger (50 rows + 20 % of the live ones, then a cost-throttled pass) was seen leaving it unvacuumed
 * for over a minute at ~4,000 pairs/s, 188 MB for fewer than 2,000 live rows; every new row then took
 * a fresh page. Vacuumed after a fixed number of dead rows, unthrottled (its live set is small, so a
 * pass is short), the table stays a few MB and its freed space is reused.
 */
export class PendingAutovacuum1764892800000 implements MigrationInterface {
  readonly name = 'PendingAutovacuum1764892800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "pending_evaluations" SET (
        autovacuum_vacuum_scale_factor = 0,
        autovacuum_vacuum_threshold = 5000,
        autovacuum_vacuum_cost_delay = 0
      )`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "pending_evaluations" RESET (
        autovacuum_vacuum_scale_factor,
        autovacuum_vacuum_threshold,
        autovacuum_vacuum_cost_delay
      )`,
    );
  }
}
