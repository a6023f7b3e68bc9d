/**
 * The floor of bench/trace-ingest: `COPY … FROM STDIN` of the same trace and span rows, with no store
 * logic (no queue, no redaction, no validation, no batching), through pg-copy-streams.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Trace } from '@helios/core';
import type pg from 'pg';
import { from as copyFromStdin } from 'pg-copy-streams';

/** The columns of the lines below, in their order. */
const TRACE_COLUMNS = [
  'id',
  'name',
  'detail',
  'status',
  'start_time',
  'end_time',
  'duration_ms',
  'error',
  'attributes',
  'input_text',
  'output_text',
  'session_id',
  'run_id',
  'model_id',
  'total_tokens',
  'input_tokens',
  'output_tokens',
  'cache_creation_tokens',
  'cache_read_tokens',
  'cost_micro_usd',
];
const SPAN_COLUMNS = [
  'id',
  'trace_id',
  'name',
  'kind',
  'status',
  'start_time',
  'end_time',
  'duration_ms',
  'error',
  'attributes',
  'input_text',
  'output_text',
  'input_tokens',
  'output_tokens',
  'cache_creation_tokens',
  'cache_read_tokens',
  'cost_micro_usd',
];

/** Runs one COPY FROM STDIN of `chunks` (text format) on `client`. */
export async function copyFrom(
  client: pg.ClientBase,
  text: string,
  chunks: readonly Buffer[],
): Promise<void> {
  await pipeline(Readable.from(chunks), client.query(copyFromStdin(text)));
}

/** COPY's text format: `\N` for NULL, backslash, tab, newline and carriage return escaped. */
function field(value: string | number | bigint | undefined | null): string {
  if (value === undefined || value === null) return '\\N';
  if (typeof value !== 'string') return String(value);
  return /[\\\t\n\r]/.test(value) ? value.replace(/[\\\t\n\r]/g, (c) => ESCAPES[c] ?? c) : value;
}

const ESCAPES: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
const iso = (ms: number): string => new Date(ms).toISOString();
const CHUNK_BYTES = 1 << 20;

/** Lines joined into chunks of about a megabyte each. */
function chunked(lines: Iterable<string>): Buffer[] {
  const chunks: Buffer[] = [];
  let pending: string[] = [];
  let size = 0;
  for (const line of lines) {
    pending.push(line);
    size += line.length + 1;
    if (size >= CHUNK_BYTES) {
      chunks.push(Buffer.from(`${pending.join('\n')}\n`));
      pending = [];
      size = 0;
    }
  }
  if (pending.length > 0) chunks.push(Buffer.from(`${pending.join('\n')}\n`));
  return chunks;
}

function* traceLines(traces: readonly Trace[]): Generator<string> {
  for (const t of traces) {
    const u = t.usage;
    yield [
      t.id,
      t.name,
      t.detail,
      t.status,
      iso(t.startTime),
      iso(t.endTime),
      t.durationMs,
      t.error,
      JSON.stringify(t.attributes),
      t.inputText,
      t.outputText,
      t.sessionId,
      t.runId,
      t.modelId,
      t.totalTokens,
      u.inputTokens,
      u.outputTokens,
      u.cacheWriteTokens,
      u.cacheReadTokens,
      t.cost.microUsd,
    ]
      .map(field)
      .join('\t');
  }
}

function* spanLines(traces: readonly Trace[]): Generator<string> {
  for (const t of traces) {
    for (const s of t.spans) {
      const u = s.usage;
      const family = s.kind.startsWith('tool.') ? 'tool' : s.kind.startsWith('hook.') ? 'hook' : s.kind;
      yield [
        s.id,
        t.id,
        s.kind,
        family,
        s.status,
        iso(s.startTime),
        iso(s.endTime),
        s.durationMs,
        s.error,
        JSON.stringify(s.attributes),
        s.input,
        s.output,
        u.inputTokens,
        u.outputTokens,
        u.cacheWriteTokens,
        u.cacheReadTokens,
        s.cost.microUsd,
      ]
        .map(field)
        .join('\t');
    }
  }
}

/** The traces, then their spans, by two COPYs in one transaction on `client`. */
export async function copyTraces(client: pg.ClientBase, traces: readonly Trace[]): Promise<void> {
  const columns = (names: readonly string[]): string => names.map((name) => `"${name}"`).join(', ');
  await client.query('BEGIN');
  try {
    await copyFrom(
      client,
      `COPY "helios_traces" (${columns(TRACE_COLUMNS)}) FROM STDIN`,
      chunked(traceLines(traces)),
    );
    await copyFrom(
      client,
      `COPY "helios_spans" (${columns(SPAN_COLUMNS)}) FROM STDIN`,
      chunked(spanLines(traces)),
    );
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  }
}
