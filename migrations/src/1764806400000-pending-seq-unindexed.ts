import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * `pending_evaluations.seq` loses its UNIQUE constraint and with it an index that every admitted
 * evaluation paid an insert into (about 5 % of PostgreSQL's work per evaluate+audit pair, measured).
 * Nothing looks rows up by `seq`: it only orders `due()`, which finds its rows through the expiry index
 * and sorts the few it takes. The identity sequence still numbers rows uniquely.
 */
export class PendingSeqUnindexed1764806400000 implements MigrationInterface {
  readonly name = 'PendingSeqUnindexed1764806400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "pending_evaluations" DROP CONSTRAINT "pending_evaluations_seq_key"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "pending_evaluations" ADD CONSTRAINT "pending_evaluations_seq_key" UNIQUE ("seq")`,
    );
  }
}
