/**
 * Reading traces back: one trace with its spans, a filtered page of traces (newest first), and rollups
 * (counts, error counts, token and cost sums, latency percentiles) grouped by model, session, name or
 * UTC day. SQL through the DataSource, every value a parameter.
 *
 * Rows map back to core's Trace exactly as PgTraceStore wrote them. The usage columns may be NULL
 * ("not recorded", reference §4.1) for rows another writer made; core's Usage has no such state (a
 * class a provider does not report is 0), so PgTraceStore always writes the four counts and a NULL
 * reads as 0 in a Trace. Money is bigint micro-USD, like core's CostEstimate.
 */
import { CostEstimate, InvalidArgumentError, type Span, type SpanKind, type SpanStatus } from '@helios/core';
import { Usage, type Trace, type TraceDetail } from '@helios/core';
import { type DataSource } from 'typeorm';
import { type Page, pageBounds, type Paginate } from './annotation.js';
import { compileTraceFilter, type FilterTables, type TraceFilter } from './trace-filter.js';
import { SPAN_COLUMNS, TRACE_COLUMNS } from './trace-rows.js';

/** A trace of the list: everything but its spans. */
export type TraceSummary = Omit<Trace, 'spans'>;

export interface TraceListQuery extends TraceFilter, Paginate {}

export const TRACE_GROUPINGS = ['model', 'session', 'name', 'day'] as const;
export type TraceGrouping = (typeof TRACE_GROUPINGS)[number];

export interface TraceSummaryQuery extends TraceFilter {
  /** The dimension to group by (traces without a value for it are left out); absent: one total row. */
  readonly groupBy?: TraceGrouping;
}

export interface LatencyPercentiles {
  /** Continuous percentiles (percentile_cont) of the traces' durations in ms; null for no traces. */
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
}

export interface TraceRollup {
  /** The group's model id, session id, name or UTC day (`YYYY-MM-DD`); null for the ungrouped total. */
  readonly key: string | null;
  readonly traces: number;
  /** Traces whose status is ERROR. */
  readonly errors: number;
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheWriteTokens: number;
  readonly cacheReadTokens: number;
  readonly totalTokens: number;
  /** Sum of the traces' cost, exact. */
  readonly costMicroUsd: bigint;
  readonly latencyMs: LatencyPercentiles;
}

/** The columns both tables share, as node-postgres returns them (bigint as text). */
interface MeasuredSqlRow {
  readonly id: string;
  readonly name: string;
  readonly status: SpanStatus;
  readonly start_time: Date;
  readonly end_time: Date | null;
  readonly duration_ms: string | null;
  readonly error: string | null;
  readonly attributes: Record<string, string>;
  readonly input_text: string | null;
  readonly output_text: string | null;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly cache_creation_tokens: number | null;
  readonly cache_read_tokens: number | null;
  readonly cost_micro_usd: string | null;
}

interface TraceSqlRow extends MeasuredSqlRow {
  readonly detail: TraceDetail;
  readonly session_id: string | null;
  readonly run_id: string | null;
  readonly model_id: string | null;
  readonly total_tokens: number;
}

interface RollupSqlRow {
  readonly key: string | null;
  readonly traces: string;
  readonly errors: string;
  readonly input_tokens: string;
  readonly output_tokens: string;
  readonly cache_creation_tokens: string;
  readonly cache_read_tokens: string;
  readonly total_tokens: string;
  readonly cost_micro_usd: string;
  readonly latency: (number | null)[] | null;
}

/** The columns read back are the ones the writer stores (trace-rows.ts), so the two cannot drift. */
const TRACE_SELECT = TRACE_COLUMNS.map(([name]) => name);
const SPAN_SELECT = SPAN_COLUMNS.map(([name]) => name).filter((name) => name !== 'trace_id');
const select = (columns: readonly string[], alias: string): string =>
  columns.map((column) => `${alias}."${column}"`).join(', ');

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const GROUP_KEYS: Readonly<Record<TraceGrouping, string>> = {
  model: 't."model_id"',
  session: 't."session_id"',
  name: 't."name"',
  day: `to_char(t."start_time" AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
};

function times(row: MeasuredSqlRow): { startTime: number; endTime: number; durationMs: number } {
  const startTime = row.start_time.getTime();
  const endTime = row.end_time === null ? startTime : row.end_time.getTime();
  return {
    startTime,
    endTime,
    durationMs: row.duration_ms === null ? endTime - startTime : Number(row.duration_ms),
  };
}

function usage(row: MeasuredSqlRow): Usage {
  return Usage.of(row.input_tokens ?? 0, row.output_tokens ?? 0, {
    cacheWriteTokens: row.cache_creation_tokens ?? 0,
    cacheReadTokens: row.cache_read_tokens ?? 0,
  });
}

/** The optional fields of a row: present when the column holds a value. */
function optional<K extends string>(
  entries: readonly (readonly [K, string | null])[],
): Partial<Record<K, string>> {
  const out: Partial<Record<K, string>> = {};
  for (const [key, value] of entries) if (value !== null) out[key] = value;
  return out;
}

function toSpan(row: MeasuredSqlRow): Span {
  return {
    id: row.id,
    kind: row.name as SpanKind,
    ...times(row),
    status: row.status,
    ...optional([
      ['error', row.error],
      ['input', row.input_text],
      ['output', row.output_text],
    ]),
    usage: usage(row),
    cost: CostEstimate.ofMicroUsd(BigInt(row.cost_micro_usd ?? 0)),
    attributes: row.attributes,
  };
}

function toSummary(row: TraceSqlRow): TraceSummary {
  return {
    id: row.id,
    name: row.name,
    detail: row.detail,
    ...optional([
      ['sessionId', row.session_id],
      ['runId', row.run_id],
      ['modelId', row.model_id],
      ['error', row.error],
      ['inputText', row.input_text],
      ['outputText', row.output_text],
    ]),
    ...times(row),
    status: row.status,
    attributes: row.attributes,
    usage: usage(row),
    totalTokens: row.total_tokens,
    cost: CostEstimate.ofMicroUsd(BigInt(row.cost_micro_usd ?? 0)),
  };
}

function toRollup(row: RollupSqlRow): TraceRollup {
  const [p50 = null, p95 = null, p99 = null] = row.latency ?? [];
  return {
    key: row.key,
    traces: Number(row.traces),
    errors: Number(row.errors),
    inputTokens: Number(row.input_tokens),
    outputTokens: Number(row.output_tokens),
    cacheWriteTokens: Number(row.cache_creation_tokens),
    cacheReadTokens: Number(row.cache_read_tokens),
    totalTokens: Number(row.total_tokens),
    costMicroUsd: BigInt(row.cost_micro_usd),
    latencyMs: { p50, p95, p99 },
  };
}

export class TraceQueries {
  private readonly filterTables: FilterTables;

  constructor(
    private readonly dataSource: DataSource,
    private readonly tables: FilterTables & { readonly traces: string },
  ) {
    this.filterTables = { spans: tables.spans, annotations: tables.annotations };
  }

  /** The trace with its spans (by start time, then id), or undefined. */
  async getTrace(id: string): Promise<Trace | undefined> {
    if (typeof id !== 'string' || !UUID.test(id)) {
      throw new InvalidArgumentError(`trace id must be a UUID: ${JSON.stringify(id)}`);
    }
    const [traceRows, spanRows] = await Promise.all([
      this.dataSource.query(
        `SELECT ${select(TRACE_SELECT, 't')} FROM ${this.tables.traces} t WHERE t."id" = $1`,
        [id],
      ),
      this.dataSource.query(
        `SELECT ${select(SPAN_SELECT, 's')} FROM ${this.tables.spans} s
         WHERE s."trace_id" = $1 ORDER BY s."start_time", s."id"`,
        [id],
      ),
    ]);
    const row = (traceRows as TraceSqlRow[])[0];
    if (row === undefined) return undefined;
    return { ...toSummary(row), spans: (spanRows as MeasuredSqlRow[]).map(toSpan) };
  }

  /** A page of traces matching the filter, newest start first (ties: higher id first), without spans. */
  async listTraces(query: TraceListQuery = {}): Promise<Page<TraceSummary>> {
    const { limit, offset } = pageBounds({ limit: query.limit, offset: query.offset });
    const filter = compileTraceFilter(query, this.filterTables, 3);
    const rows = (await this.dataSource.query(
      `SELECT ${select(TRACE_SELECT, 't')} FROM ${this.tables.traces} t
       WHERE ${filter.sql} ORDER BY t."start_time" DESC, t."id" DESC LIMIT $1 OFFSET $2`,
      [limit + 1, offset, ...filter.params],
    )) as TraceSqlRow[];
    const hasMore = rows.length > limit;
    return {
      items: rows.slice(0, limit).map(toSummary),
      hasMore,
      nextOffset: hasMore ? offset + limit : undefined,
    };
  }

  /** Rollups over the filtered traces, one per group (ascending key), or one total without groupBy. */
  async summarize(query: TraceSummaryQuery = {}): Promise<TraceRollup[]> {
    const { groupBy } = query;
    if (groupBy !== undefined && !TRACE_GROUPINGS.includes(groupBy)) {
      throw new InvalidArgumentError(`summarize groupBy must be one of ${TRACE_GROUPINGS.join(', ')}`);
    }
    const filter = compileTraceFilter(query, this.filterTables);
    const key = groupBy === undefined ? 'NULL::text' : GROUP_KEYS[groupBy];
    const sums = [
      'input_tokens',
      'output_tokens',
      'cache_creation_tokens',
      'cache_read_tokens',
      'total_tokens',
    ]
      .map((column) => `coalesce(sum(t."${column}"), 0)::text AS "${column}"`)
      .join(', ');
    const rows = (await this.dataSource.query(
      `SELECT ${key} AS "key", count(*)::text AS "traces",
         count(*) FILTER (WHERE t."status" = 'ERROR')::text AS "errors", ${sums},
         coalesce(sum(t."cost_micro_usd"), 0)::text AS "cost_micro_usd",
         percentile_cont(ARRAY[0.5, 0.95, 0.99]::float8[])
           WITHIN GROUP (ORDER BY coalesce(t."duration_ms", 0)) AS "latency"
       FROM ${this.tables.traces} t
       WHERE ${filter.sql}${groupBy === undefined ? '' : ` AND ${key} IS NOT NULL GROUP BY 1 ORDER BY 1`}`,
      [...filter.params],
    )) as RollupSqlRow[];
    return rows.map(toRollup);
  }
}
