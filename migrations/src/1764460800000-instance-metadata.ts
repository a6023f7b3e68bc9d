import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The first table: one row describing this Helios installation (its id, when it was created, how many
 * times it has started). The API writes it at every start and shows it on the status page.
 */
export class InstanceMetadata1764460800000 implements MigrationInterface {
  readonly name = 'InstanceMetadata1764460800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "instance_metadata" (
        "id" uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        "singleton" boolean NOT NULL DEFAULT true,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "last_started_at" timestamptz NOT NULL DEFAULT now(),
        "start_count" bigint NOT NULL DEFAULT 0 CHECK ("start_count" >= 0),
        "version" text NOT NULL,
        CONSTRAINT "instance_metadata_singleton" UNIQUE ("singleton"),
        CONSTRAINT "instance_metadata_singleton_true" CHECK ("singleton")
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "instance_metadata"`);
  }
}
