/**
 * The filters of the trace list and the rollups, checked and compiled to a parameterised condition
 * over `helios_traces t`: every value is a `$n` parameter, the only identifiers are the store's own
 * (schema-qualified) table names. Ranges: `from` inclusive, `to` exclusive (on start time); cost and
 * duration bounds inclusive on both sides; a trace without a cost or duration matches no cost or
 * duration bound.
 */
import { InvalidArgumentError, SpanStatus } from '@helios/core';

export interface TraceFilter {
  /** Traces that started at or after this instant. */
  readonly from?: Date;
  /** Traces that started before this instant. */
  readonly to?: Date;
  readonly sessionId?: string;
  readonly status?: SpanStatus;
  readonly modelId?: string;
  /** The trace's name (the agent or run name it was recorded under). */
  readonly name?: string;
  readonly minCostMicroUsd?: bigint;
  readonly maxCostMicroUsd?: bigint;
  readonly minDurationMs?: number;
  readonly maxDurationMs?: number;
  /**
   * true: traces with at least one annotation on the trace or on one of its spans (`subject_id`);
   * false: traces with none.
   */
  readonly hasAnnotation?: boolean;
}

/** The qualified tables a filter may reach besides `helios_traces`. */
export interface FilterTables {
  readonly spans: string;
  readonly annotations: string;
}

export interface CompiledTraceFilter {
  /** A boolean SQL expression over `t` (true when nothing is filtered). */
  readonly sql: string;
  readonly params: readonly unknown[];
}

const STATUSES: readonly string[] = Object.values(SpanStatus);

function instant(value: Date, field: string): string {
  if (!(value instanceof Date) || Number.isNaN(value.getTime())) {
    throw new InvalidArgumentError(`trace filter ${field} must be a valid Date`);
  }
  return value.toISOString();
}

function money(value: bigint, field: string): string {
  if (typeof value !== 'bigint' || value < 0n) {
    throw new InvalidArgumentError(`trace filter ${field} must be a non-negative bigint of micro-USD`);
  }
  return value.toString();
}

function duration(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(`trace filter ${field} must be a non-negative number of milliseconds`);
  }
  return value;
}

function text(value: string, field: string): string {
  if (typeof value !== 'string') throw new InvalidArgumentError(`trace filter ${field} must be a string`);
  return value;
}

/** Compiles `filter` with its parameters numbered from `firstParam`. Throws InvalidArgumentError. */
export function compileTraceFilter(
  filter: TraceFilter,
  tables: FilterTables,
  firstParam = 1,
): CompiledTraceFilter {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const bind = (value: unknown, cast: string): string => {
    params.push(value);
    return `$${firstParam + params.length - 1}::${cast}`;
  };
  const { from, to, sessionId, status, modelId, name } = filter;
  if (from !== undefined) conditions.push(`t."start_time" >= ${bind(instant(from, 'from'), 'timestamptz')}`);
  if (to !== undefined) conditions.push(`t."start_time" < ${bind(instant(to, 'to'), 'timestamptz')}`);
  if (sessionId !== undefined)
    conditions.push(`t."session_id" = ${bind(text(sessionId, 'sessionId'), 'text')}`);
  if (status !== undefined) {
    if (!STATUSES.includes(status))
      throw new InvalidArgumentError(`trace filter status must be one of ${STATUSES.join(', ')}`);
    conditions.push(`t."status" = ${bind(status, 'text')}`);
  }
  if (modelId !== undefined) conditions.push(`t."model_id" = ${bind(text(modelId, 'modelId'), 'text')}`);
  if (name !== undefined) conditions.push(`t."name" = ${bind(text(name, 'name'), 'text')}`);
  const bounds: readonly [
    keyof TraceFilter,
    string,
    '>=' | '<=',
    (v: never, f: string) => unknown,
    string,
  ][] = [
    ['minCostMicroUsd', 'cost_micro_usd', '>=', money, 'bigint'],
    ['maxCostMicroUsd', 'cost_micro_usd', '<=', money, 'bigint'],
    ['minDurationMs', 'duration_ms', '>=', duration, 'float8'],
    ['maxDurationMs', 'duration_ms', '<=', duration, 'float8'],
  ];
  for (const [field, column, operator, check, cast] of bounds) {
    const value = filter[field];
    if (value !== undefined) {
      conditions.push(`t."${column}" ${operator} ${bind(check(value as never, field), cast)}`);
    }
  }
  if (filter.hasAnnotation !== undefined) {
    if (typeof filter.hasAnnotation !== 'boolean')
      throw new InvalidArgumentError('trace filter hasAnnotation must be a boolean');
    const annotated = `(EXISTS (SELECT 1 FROM ${tables.annotations} a WHERE a."subject_id" = t."id")
      OR EXISTS (SELECT 1 FROM ${tables.spans} s JOIN ${tables.annotations} a ON a."subject_id" = s."id"
                 WHERE s."trace_id" = t."id"))`;
    conditions.push(filter.hasAnnotation ? annotated : `NOT ${annotated}`);
  }
  return { sql: conditions.length === 0 ? 'true' : conditions.join(' AND '), params };
}
