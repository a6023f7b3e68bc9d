import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Traces and spans (issue 21): the tables `PgTraceStore` writes, after reference §4.1, in the schema
 * the migrations run in (the first of the connection's search_path; see PersistenceConfig).
 *
 * - `helios_traces`: one row per run. The reference's columns (money as `bigint` micro-USD, NULL usage
 *   meaning "not recorded", distinct from 0) plus what our core Trace carries that the reference lacks:
 *   `detail` (STANDARD/VERBOSE), `run_id`, `status` (OK/ERROR) and `duration_ms` (the run's own
 *   measure, which the latency filters and percentiles read). `session_id` is text, not uuid: a Helios
 *   session id is any 1 to 128 characters of [A-Za-z0-9._:-].
 * - `helios_spans`: one row per span. `name` is the span's kind as recorded (`tool.read_file`), `kind`
 *   its family (`model.call`, `tool`, `hook`). `parent_id` is NULL for every span our core records
 *   (its spans are a flat list with no parent), but the reference's composite foreign key keeps a
 *   parent, when a writer sets one, inside the same trace.
 *
 * Indexes serve the trace list (newest first, by start_time then id, read backwards), its filters
 * (session, model, name, each with start_time for "newest first within"), the reference's user_id and
 * group_id lookups, and a GIN index on `labels`. A span's trace lookup uses the (trace_id, id) unique
 * index, so no separate trace_id index; the partial (trace_id, parent_id) index is what the self
 * foreign key's ON DELETE CASCADE searches when a trace is deleted.
 */
export class Traces1765324800000 implements MigrationInterface {
  readonly name = 'Traces1765324800000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "helios_traces" (
        "id" uuid PRIMARY KEY,
        "name" varchar(255) NOT NULL,
        "detail" varchar(16) NOT NULL DEFAULT 'STANDARD',
        "status" varchar(16) NOT NULL DEFAULT 'OK',
        "start_time" timestamptz NOT NULL,
        "end_time" timestamptz,
        "duration_ms" bigint,
        "error" text,
        "attributes" jsonb NOT NULL DEFAULT '{}',
        "input_text" text,
        "output_text" text,
        "user_id" varchar(255),
        "session_id" varchar(255),
        "run_id" varchar(255),
        "model_id" varchar(255),
        "prompt_name" varchar(255),
        "prompt_version" integer,
        "total_tokens" integer NOT NULL DEFAULT 0,
        "input_tokens" integer,
        "output_tokens" integer,
        "cache_creation_tokens" integer,
        "cache_read_tokens" integer,
        "cost_micro_usd" bigint,
        "thumbs_up_count" integer NOT NULL DEFAULT 0,
        "thumbs_down_count" integer NOT NULL DEFAULT 0,
        "group_id" varchar(255),
        "labels" jsonb NOT NULL DEFAULT '[]',
        CONSTRAINT "helios_traces_detail_check" CHECK ("detail" IN ('STANDARD', 'VERBOSE')),
        CONSTRAINT "helios_traces_status_check" CHECK ("status" IN ('OK', 'ERROR'))
      )`);
    const traceIndexes: readonly [string, string][] = [
      ['helios_traces_start_id', '"start_time", "id"'],
      ['helios_traces_session_start', '"session_id", "start_time"'],
      ['helios_traces_model_start', '"model_id", "start_time"'],
      ['helios_traces_name_start', '"name", "start_time"'],
      ['helios_traces_user', '"user_id"'],
      ['helios_traces_group', '"group_id"'],
    ];
    for (const [name, columns] of traceIndexes) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "helios_traces" (${columns})`);
    }
    await queryRunner.query(`CREATE INDEX "helios_traces_labels" ON "helios_traces" USING gin ("labels")`);

    await queryRunner.query(`
      CREATE TABLE "helios_spans" (
        "id" uuid PRIMARY KEY,
        "trace_id" uuid NOT NULL,
        "parent_id" uuid,
        "name" varchar(255) NOT NULL,
        "kind" varchar(50) NOT NULL,
        "status" varchar(16) NOT NULL DEFAULT 'OK',
        "start_time" timestamptz NOT NULL,
        "end_time" timestamptz,
        "duration_ms" bigint,
        "error" text,
        "attributes" jsonb NOT NULL DEFAULT '{}',
        "input_text" text,
        "output_text" text,
        "input_tokens" integer,
        "output_tokens" integer,
        "cache_creation_tokens" integer,
        "cache_read_tokens" integer,
        "cost_micro_usd" bigint,
        CONSTRAINT "helios_spans_status_check" CHECK ("status" IN ('OK', 'ERROR')),
        CONSTRAINT "helios_spans_trace_id_id" UNIQUE ("trace_id", "id"),
        CONSTRAINT "helios_spans_trace_fkey" FOREIGN KEY ("trace_id")
          REFERENCES "helios_traces" ("id") ON DELETE CASCADE,
        CONSTRAINT "helios_spans_parent_fkey" FOREIGN KEY ("trace_id", "parent_id")
          REFERENCES "helios_spans" ("trace_id", "id") ON DELETE CASCADE
      )`);
    await queryRunner.query(
      `CREATE INDEX "helios_spans_trace_parent" ON "helios_spans" ("trace_id", "parent_id")
         WHERE "parent_id" IS NOT NULL`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "helios_spans"`);
    await queryRunner.query(`DROP TABLE "helios_traces"`);
  }
}
