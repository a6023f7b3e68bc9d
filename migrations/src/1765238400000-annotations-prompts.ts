import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Annotations and the prompt registry (issue 21, first slice), in the default schema like the
 * governance tables (a configurable schema name comes with the session and trace stores).
 *
 * - `helios_annotations`: structured notes on a trace or span (`subject_id`, no foreign key: the
 *   subject may live in another store). `upsertAnnotation` is idempotent on (subject_id, facet, label,
 *   author_id) for rows with an author; author-less rows always insert. `facet` is nullable, and a
 *   plain unique index treats NULLs as distinct, so the key is a pair of partial unique indexes: one
 *   for rows with a facet, one for rows without (an expression index on COALESCE(facet, '') would
 *   confuse "no facet" with the empty facet, and TypeORM entities cannot describe it).
 * - `helios_prompts`: immutable (name, version) rows; `helios_prompt_labels`: movable labels
 *   (`production`, `staging`), one per (name, label), each pointing at an existing version.
 */
export class AnnotationsPrompts1765238400000 implements MigrationInterface {
  readonly name = 'AnnotationsPrompts1765238400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "helios_annotations" (
        "id" uuid PRIMARY KEY,
        "subject_id" uuid NOT NULL,
        "facet" varchar(255),
        "label" varchar(255) NOT NULL,
        "author_kind" varchar(32) NOT NULL CHECK ("author_kind" IN ('HUMAN', 'MODEL', 'SYSTEM')),
        "author_id" varchar(255),
        "rating" smallint,
        "comment" text,
        "metadata" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "helios_annotations_key_faceted" ON "helios_annotations"
         ("subject_id", "facet", "label", "author_id") WHERE "facet" IS NOT NULL AND "author_id" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "helios_annotations_key_unfaceted" ON "helios_annotations"
         ("subject_id", "label", "author_id") WHERE "facet" IS NULL AND "author_id" IS NOT NULL`,
    );
    // findBySubject(s): one subject's rows, oldest first.
    await queryRunner.query(
      `CREATE INDEX "helios_annotations_subject_created" ON "helios_annotations" ("subject_id", "created_at")`,
    );
    // list(): oldest first, ties by id, paged.
    await queryRunner.query(
      `CREATE INDEX "helios_annotations_created_id" ON "helios_annotations" ("created_at", "id")`,
    );
    // The most common SCIM filter: one label across subjects.
    await queryRunner.query(`CREATE INDEX "helios_annotations_label" ON "helios_annotations" ("label")`);

    await queryRunner.query(`
      CREATE TABLE "helios_prompts" (
        "id" uuid PRIMARY KEY,
        "name" varchar(255) NOT NULL,
        "version" integer NOT NULL CHECK ("version" >= 1),
        "content" text NOT NULL,
        "variables" jsonb NOT NULL,
        "metadata" jsonb NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "helios_prompts_name_version" UNIQUE ("name", "version")
      )`);
    await queryRunner.query(`
      CREATE TABLE "helios_prompt_labels" (
        "name" varchar(255) NOT NULL,
        "label" varchar(255) NOT NULL,
        "version" integer NOT NULL,
        "updated_at" timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY ("name", "label"),
        CONSTRAINT "helios_prompt_labels_prompt_fkey" FOREIGN KEY ("name", "version")
          REFERENCES "helios_prompts" ("name", "version")
      )`);
    // The labels pointing at one version (listed with each prompt).
    await queryRunner.query(
      `CREATE INDEX "helios_prompt_labels_version" ON "helios_prompt_labels" ("name", "version")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "helios_prompt_labels"`);
    await queryRunner.query(`DROP TABLE "helios_prompts"`);
    await queryRunner.query(`DROP TABLE "helios_annotations"`);
  }
}
