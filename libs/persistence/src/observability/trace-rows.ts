/**
 * A Trace as the rows PgTraceStore writes: one `helios_traces` row and one `helios_spans` row per span,
 * and the multi-row INSERTs that carry them. Each row is a small JSON object (short keys, see the
 * column lists below); a statement binds ONE parameter, the JSON array of its rows, and inserts
 * `SELECT … FROM json_to_recordset($1::json) AS x(…)`, so PostgreSQL's limit of 65,535 bind parameters
 * per statement never binds whatever the row count (a VALUES list with a parameter per value would hit
 * it at 3,276 trace rows). Statements are cut by size instead (`maxStatementChars`, default 1 Mi
 * characters: the function scan holds its rows in work_mem, and larger documents measured slower).
 * Why JSON: V8 serialises a row in one native call, where building bind values or array literals
 * value by value cost four times the client CPU (docs/benchmarks.md, trace-ingest).
 *
 * What changes on the way in, and nothing else:
 * - the redactor, when there is one, runs over every text field (trace error, input and output text;
 *   span error, input and output) and every value of every attribute map; names, ids and attribute
 *   keys are identifiers, not content, and are stored as given;
 * - NUL characters, which PostgreSQL text and jsonb cannot hold, become U+FFFD, and so do lone UTF-16
 *   surrogates (so one stray byte in a tool result cannot make the database refuse the whole trace);
 * - a duration is rounded to a whole millisecond (times are stored to the microsecond).
 *
 * Our core spans form a flat list without parents: `parent_id` is left NULL (the column and its
 * same-trace foreign key exist for writers that nest spans). A span's `name` is its kind as recorded
 * (`tool.read_file`) and `kind` its family (`model.call`, `tool`, `hook`).
 */
import { InvalidArgumentError, type Span, type Trace } from '@helios/core';

/** Maps one text to what may be stored (a Redactor's `redactText`, or any function). */
export type RedactText = (text: string) => string;

/** A column: its name, the row's JSON key, the key's type in json_to_recordset, and how it is stored. */
export type Column = readonly [name: string, key: string, type: string];

/** Epoch milliseconds (`float8` keys) become timestamptz exactly: ms × 1 ms (exact below 2^53 µs). */
const stored = ([, key, type]: Column): string =>
  type === 'float8' ? `TIMESTAMPTZ 'epoch' + x."${key}" * INTERVAL '1 millisecond'` : `x."${key}"`;

const MEASURED: readonly Column[] = [
  ['start_time', 'st', 'float8'],
  ['end_time', 'et', 'float8'],
  ['duration_ms', 'du', 'int8'],
  ['error', 'e', 'text'],
  ['attributes', 'a', 'jsonb'],
  ['input_text', 'in', 'text'],
  ['output_text', 'out', 'text'],
  ['input_tokens', 'ti', 'int4'],
  ['output_tokens', 'to', 'int4'],
  ['cache_creation_tokens', 'cw', 'int4'],
  ['cache_read_tokens', 'cr', 'int4'],
  ['cost_micro_usd', 'c', 'int8'],
];

export const TRACE_COLUMNS: readonly Column[] = [
  ['id', 'id', 'uuid'],
  ['name', 'n', 'text'],
  ['detail', 'd', 'text'],
  ['status', 's', 'text'],
  ...MEASURED,
  ['session_id', 'si', 'text'],
  ['run_id', 'ri', 'text'],
  ['model_id', 'mi', 'text'],
  ['total_tokens', 'tt', 'int4'],
];

export const SPAN_COLUMNS: readonly Column[] = [
  ['id', 'id', 'uuid'],
  ['trace_id', 't', 'uuid'],
  ['name', 'n', 'text'],
  ['kind', 'k', 'text'],
  ['status', 's', 'text'],
  ...MEASURED,
];

/** The largest statement, in characters of its JSON, before a batch is cut into several. */
export const DEFAULT_MAX_STATEMENT_CHARS = 1024 * 1024;

/** One trace's rows, each a JSON object text: its own and its spans'. */
export interface TraceRows {
  /** The trace's id, lower case (as PostgreSQL returns a uuid). */
  readonly id: string;
  readonly trace: string;
  readonly spans: readonly string[];
}

type Row = Record<string, string | number | Readonly<Record<string, string>> | undefined>;

// JSON.stringify writes `\u` only for control characters and lone surrogates; of those, PostgreSQL
// refuses NUL (as text) and lone surrogates (as json).
const UNSTORABLE = /\\u(?:0000|d[89a-f])/i;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A string PostgreSQL can store: NULs and lone surrogates replaced with U+FFFD. */
function storable(text: string): string {
  return text.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
}

function sanitized(value: Row[string]): Row[string] {
  if (typeof value === 'string') return storable(value);
  if (typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [storable(k), storable(String(v))]));
}

/** The row as JSON, rebuilt with storable strings only when it holds what PostgreSQL refuses. */
function json(row: Row): string {
  const text = JSON.stringify(row);
  if (!text.includes('\\u') || !UNSTORABLE.test(text)) return text;
  return JSON.stringify(Object.fromEntries(Object.entries(row).map(([k, v]) => [k, sanitized(v)])));
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A trace or span id in PostgreSQL's canonical spelling (lower case), or InvalidArgumentError. */
function uuid(value: string, field: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw new InvalidArgumentError(`trace ${field} must be a UUID, got ${JSON.stringify(value)}`);
  }
  return value.toLowerCase();
}

function ms(value: number, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new InvalidArgumentError(
      `trace ${field} must be a finite number of milliseconds, got ${String(value)}`,
    );
  }
  return value;
}

/** The span family stored in `kind` (varchar(50)); the full kind is the span's `name`. */
export function spanFamily(kind: string): string {
  if (kind.startsWith('tool.')) return 'tool';
  if (kind.startsWith('hook.')) return 'hook';
  return kind;
}

class RowBuilder {
  constructor(private readonly redact: RedactText | undefined) {}

  content(text: string | undefined): string | undefined {
    return text === undefined || text === null || this.redact === undefined
      ? text
      : this.redact(String(text));
  }

  /** Without a redactor the map is serialised as it is; with one, a copy with every value redacted. */
  attributes(attributes: Readonly<Record<string, string>> | undefined): Readonly<Record<string, string>> {
    const redact = this.redact;
    if (attributes === undefined || attributes === null) return {};
    if (redact === undefined) return attributes;
    const out: Record<string, string> = {};
    for (const key of Object.keys(attributes)) out[key] = redact(String(attributes[key]));
    return out;
  }

  /** The columns traces and spans share; `input` and `output` are the trace's texts or the span's. */
  measured(item: Trace | Span, input: string | undefined, output: string | undefined, prefix: string): Row {
    const { usage } = item;
    return {
      st: ms(item.startTime, `${prefix}startTime`),
      et: ms(item.endTime, `${prefix}endTime`),
      du: Math.round(ms(item.durationMs, `${prefix}durationMs`)),
      e: this.content(item.error),
      a: this.attributes(item.attributes),
      in: this.content(input),
      out: this.content(output),
      ti: usage.inputTokens,
      to: usage.outputTokens,
      cw: usage.cacheWriteTokens,
      cr: usage.cacheReadTokens,
      c: item.cost.microUsd.toString(),
    };
  }
}

/**
 * The rows of `trace`, redacted with `redact` when given. Throws for a trace that cannot be turned
 * into rows at all (a time that is not a finite number, a missing usage); the database judges the rest.
 */
export function traceRows(trace: Trace, redact?: RedactText): TraceRows {
  const builder = new RowBuilder(redact);
  const id = uuid(trace.id, 'id');
  const row: Row = {
    id,
    n: trace.name,
    d: trace.detail,
    s: trace.status,
    ...builder.measured(trace, trace.inputText, trace.outputText, ''),
    si: trace.sessionId,
    ri: trace.runId,
    mi: trace.modelId,
    tt: trace.totalTokens,
  };
  const spans = trace.spans.map((span) =>
    json({
      id: uuid(span.id, 'span id'),
      t: id,
      n: span.kind,
      k: spanFamily(span.kind),
      s: span.status,
      ...builder.measured(span, span.input, span.output, 'span '),
    }),
  );
  return { id, trace: json(row), spans };
}

export interface Statement {
  readonly sql: string;
  readonly params: [string];
}

/**
 * `INSERT … SELECT … FROM json_to_recordset($1::json) AS x(…) <tail>` statements for `rows`, cut so
 * that each statement's JSON stays under `maxChars` characters (a row larger than that alone gets a
 * statement of its own). `tail` ends each statement: `ON CONFLICT DO NOTHING RETURNING "id"` for the
 * traces (see trace-batch-writer.ts), nothing for their spans.
 */
export function insertStatements(
  table: string,
  columns: readonly Column[],
  rows: readonly string[],
  maxChars = DEFAULT_MAX_STATEMENT_CHARS,
  tail = '',
): Statement[] {
  const sql =
    `INSERT INTO ${table} (${columns.map(([name]) => `"${name}"`).join(', ')}) ` +
    `SELECT ${columns.map(stored).join(', ')} ` +
    `FROM json_to_recordset($1::json) AS x(${columns.map(([, key, type]) => `"${key}" ${type}`).join(', ')})` +
    (tail === '' ? '' : ` ${tail}`);
  const statements: Statement[] = [];
  let chunk: string[] = [];
  let chars = 0;
  for (const row of rows) {
    if (chunk.length > 0 && chars + row.length + 1 > maxChars) {
      statements.push({ sql, params: [`[${chunk.join(',')}]`] });
      chunk = [];
      chars = 0;
    }
    chunk.push(row);
    chars += row.length + 1;
  }
  if (chunk.length > 0) statements.push({ sql, params: [`[${chunk.join(',')}]`] });
  return statements;
}
