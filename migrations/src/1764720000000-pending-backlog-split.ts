import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The pending backlog counter becomes two monotonic totals in two rows: `pending_backlog` counts what
 * was ever admitted, `pending_backlog_freed` what was ever finalized; the backlog is their difference.
 * Admissions lock only the first row and finalizations only the second, so the two no longer queue
 * behind each other's commit. A stale read of the freed total can only under-state the room, never
 * over-admit: admission stays exact under the admitted row's lock.
 */
export class PendingBacklogSplit1764720000000 implements MigrationInterface {
  readonly name = 'PendingBacklogSplit1764720000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "pending_backlog" RENAME COLUMN "count" TO "admitted_count"`);
    await queryRunner.query(`ALTER TABLE "pending_backlog" RENAME COLUMN "bytes" TO "admitted_bytes"`);
    // Totals since the table was created outgrow int quickly at thousands of evaluations a second.
    await queryRunner.query(`ALTER TABLE "pending_backlog" ALTER COLUMN "admitted_count" TYPE bigint`);
    await queryRunner.query(`
      CREATE TABLE "pending_backlog_freed" (
        "singleton" boolean PRIMARY KEY DEFAULT true CHECK ("singleton"),
        "freed_count" bigint NOT NULL CHECK ("freed_count" >= 0),
        "freed_bytes" bigint NOT NULL CHECK ("freed_bytes" >= 0)
      )`);
    await queryRunner.query(
      `INSERT INTO "pending_backlog_freed" ("freed_count", "freed_bytes") VALUES (0, 0)`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      UPDATE "pending_backlog" b SET
        "admitted_count" = b."admitted_count" - f."freed_count",
        "admitted_bytes" = b."admitted_bytes" - f."freed_bytes"
      FROM "pending_backlog_freed" f`);
    await queryRunner.query(`DROP TABLE "pending_backlog_freed"`);
    await queryRunner.query(`ALTER TABLE "pending_backlog" ALTER COLUMN "admitted_count" TYPE integer`);
    await queryRunner.query(`ALTER TABLE "pending_backlog" RENAME COLUMN "admitted_bytes" TO "bytes"`);
    await queryRunner.query(`ALTER TABLE "pending_backlog" RENAME COLUMN "admitted_count" TO "count"`);
  }
}
