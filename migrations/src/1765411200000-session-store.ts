import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The session store (issue 21): one row per conversation entry, in the session's own wire form.
 *
 * - `helios_sessions`: one row per session id; `version` is the count of its entries, the compare-and-
 *   set an append checks so that one writer at a time extends a conversation.
 * - `helios_session_entries`: (session_id, seq) from 1; `body` is `json`, not `jsonb`, because jsonb
 *   reorders keys and drops duplicates: a stored turn (tool-call arguments, signed provider metadata)
 *   must read back byte for byte. `kind` repeats the entry's kind for queries and a check.
 */
export class SessionStore1765411200000 implements MigrationInterface {
  readonly name = 'SessionStore1765411200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "helios_sessions" (
        "session_id" varchar(128) PRIMARY KEY,
        "version" bigint NOT NULL DEFAULT 0 CHECK ("version" >= 0),
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(`
      CREATE TABLE "helios_session_entries" (
        "session_id" varchar(128) NOT NULL
          CONSTRAINT "helios_session_entries_session_fkey"
          REFERENCES "helios_sessions" ("session_id") ON DELETE CASCADE,
        "seq" bigint NOT NULL CHECK ("seq" >= 1),
        "kind" varchar(32) NOT NULL
          CHECK ("kind" IN ('message', 'history', 'question', 'questionClosed')),
        "body" json NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "helios_session_entries_pkey" PRIMARY KEY ("session_id", "seq")
      )`);
    // Sessions by recency, for listings and retention.
    await queryRunner.query(`CREATE INDEX "helios_sessions_updated" ON "helios_sessions" ("updated_at")`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "helios_session_entries"`);
    await queryRunner.query(`DROP TABLE "helios_sessions"`);
  }
}
