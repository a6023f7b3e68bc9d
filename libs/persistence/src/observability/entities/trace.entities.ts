/**
 * `helios_traces` and `helios_spans` (migration Traces1765324800000): one row per run and one per span.
 * The GIN index on `labels` is declared with `synchronize: false`: an EntitySchema index has no index
 * method, so TypeORM would build it as a btree (the drift test lists it as inexpressible).
 */
import { EntitySchema } from 'typeorm';

export interface TraceRow {
  readonly id: string;
  readonly name: string;
  readonly detail: string;
  readonly status: string;
  readonly startTime: Date;
  readonly endTime: Date | null;
  readonly durationMs: string | null;
  readonly error: string | null;
  readonly attributes: unknown;
  readonly inputText: string | null;
  readonly outputText: string | null;
  readonly userId: string | null;
  readonly sessionId: string | null;
  readonly runId: string | null;
  readonly modelId: string | null;
  readonly promptName: string | null;
  readonly promptVersion: number | null;
  readonly totalTokens: number;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly cacheCreationTokens: number | null;
  readonly cacheReadTokens: number | null;
  readonly costMicroUsd: string | null;
  readonly thumbsUpCount: number;
  readonly thumbsDownCount: number;
  readonly groupId: string | null;
  readonly labels: unknown;
}

export interface SpanRow {
  readonly id: string;
  readonly traceId: string;
  readonly parentId: string | null;
  readonly name: string;
  readonly kind: string;
  readonly status: string;
  readonly startTime: Date;
  readonly endTime: Date | null;
  readonly durationMs: string | null;
  readonly error: string | null;
  readonly attributes: unknown;
  readonly inputText: string | null;
  readonly outputText: string | null;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
  readonly cacheCreationTokens: number | null;
  readonly cacheReadTokens: number | null;
  readonly costMicroUsd: string | null;
}

const text255 = { type: 'varchar', length: 255 } as const;
const nullable255 = { ...text255, nullable: true } as const;
const nullableInt = { type: 'integer', nullable: true } as const;
const status = { type: 'varchar', length: 16, default: 'OK' } as const;

/** The usage, cost and payload columns traces and spans share. */
const measured = {
  startTime: { name: 'start_time', type: 'timestamptz' },
  endTime: { name: 'end_time', type: 'timestamptz', nullable: true },
  durationMs: { name: 'duration_ms', type: 'bigint', nullable: true },
  error: { type: 'text', nullable: true },
  attributes: { type: 'jsonb', default: () => `'{}'` },
  inputText: { name: 'input_text', type: 'text', nullable: true },
  outputText: { name: 'output_text', type: 'text', nullable: true },
  inputTokens: { name: 'input_tokens', ...nullableInt },
  outputTokens: { name: 'output_tokens', ...nullableInt },
  cacheCreationTokens: { name: 'cache_creation_tokens', ...nullableInt },
  cacheReadTokens: { name: 'cache_read_tokens', ...nullableInt },
  costMicroUsd: { name: 'cost_micro_usd', type: 'bigint', nullable: true },
} as const;

export const TraceEntity = new EntitySchema<TraceRow>({
  name: 'Trace',
  tableName: 'helios_traces',
  columns: {
    id: { type: 'uuid', primary: true, primaryKeyConstraintName: 'helios_traces_pkey' },
    name: text255,
    detail: { type: 'varchar', length: 16, default: 'STANDARD' },
    status,
    ...measured,
    userId: { name: 'user_id', ...nullable255 },
    sessionId: { name: 'session_id', ...nullable255 },
    runId: { name: 'run_id', ...nullable255 },
    modelId: { name: 'model_id', ...nullable255 },
    promptName: { name: 'prompt_name', ...nullable255 },
    promptVersion: { name: 'prompt_version', ...nullableInt },
    totalTokens: { name: 'total_tokens', type: 'integer', default: 0 },
    thumbsUpCount: { name: 'thumbs_up_count', type: 'integer', default: 0 },
    thumbsDownCount: { name: 'thumbs_down_count', type: 'integer', default: 0 },
    groupId: { name: 'group_id', ...nullable255 },
    labels: { type: 'jsonb', default: () => `'[]'` },
  },
  indices: [
    { name: 'helios_traces_start_id', columns: ['startTime', 'id'] },
    { name: 'helios_traces_session_start', columns: ['sessionId', 'startTime'] },
    { name: 'helios_traces_model_start', columns: ['modelId', 'startTime'] },
    { name: 'helios_traces_name_start', columns: ['name', 'startTime'] },
    { name: 'helios_traces_user', columns: ['userId'] },
    { name: 'helios_traces_group', columns: ['groupId'] },
    { name: 'helios_traces_labels', columns: ['labels'], synchronize: false },
  ],
  checks: [
    { name: 'helios_traces_detail_check', expression: `"detail" IN ('STANDARD', 'VERBOSE')` },
    { name: 'helios_traces_status_check', expression: `"status" IN ('OK', 'ERROR')` },
  ],
});

export const SpanEntity: EntitySchema<SpanRow> = new EntitySchema<SpanRow>({
  name: 'Span',
  tableName: 'helios_spans',
  columns: {
    id: { type: 'uuid', primary: true, primaryKeyConstraintName: 'helios_spans_pkey' },
    traceId: { name: 'trace_id', type: 'uuid' },
    parentId: { name: 'parent_id', type: 'uuid', nullable: true },
    name: text255,
    kind: { type: 'varchar', length: 50 },
    status,
    ...measured,
  },
  uniques: [{ name: 'helios_spans_trace_id_id', columns: ['traceId', 'id'] }],
  foreignKeys: [
    {
      name: 'helios_spans_trace_fkey',
      target: TraceEntity,
      columnNames: ['traceId'],
      referencedColumnNames: ['id'],
      onDelete: 'CASCADE',
    },
    {
      name: 'helios_spans_parent_fkey',
      target: 'Span',
      columnNames: ['traceId', 'parentId'],
      referencedColumnNames: ['traceId', 'id'],
      onDelete: 'CASCADE',
    },
  ],
  indices: [
    {
      name: 'helios_spans_trace_parent',
      columns: ['traceId', 'parentId'],
      where: '"parent_id" IS NOT NULL',
    },
  ],
  checks: [{ name: 'helios_spans_status_check', expression: `"status" IN ('OK', 'ERROR')` }],
});
