/** The rows PgTraceStore writes: one JSON document per statement, cut by size; families; redaction. */
import { describe, expect, it } from 'vitest';
import { fixtureTrace, typicalTrace } from './trace-fixtures.js';
import {
  type Column,
  insertStatements,
  spanFamily,
  SPAN_COLUMNS,
  TRACE_COLUMNS,
  traceRows,
} from './trace-rows.js';

describe('insertStatements', () => {
  const columns: Column[] = [
    ['id', 'id', 'uuid'],
    ['start_time', 'st', 'float8'],
  ];

  it('binds one parameter whatever the row count: far under the 65,535-parameter limit', () => {
    const rows = Array.from({ length: 70_000 }, (_, i) => JSON.stringify({ id: String(i), st: i }));
    const [statement, ...more] = insertStatements('"public"."t"', columns, rows, Infinity, 'RETURNING "id"');
    expect(more).toEqual([]);
    expect(statement?.sql).toBe(
      `INSERT INTO "public"."t" ("id", "start_time") SELECT x."id", ` +
        `TIMESTAMPTZ 'epoch' + x."st" * INTERVAL '1 millisecond' ` +
        `FROM json_to_recordset($1::json) AS x("id" uuid, "st" float8) RETURNING "id"`,
    );
    expect(insertStatements('t', columns, rows.slice(0, 1))[0]?.sql).toMatch(
      /AS x\("id" uuid, "st" float8\)$/,
    );
    expect(statement?.params).toHaveLength(1);
    expect(JSON.parse(statement?.params[0] ?? '')).toHaveLength(70_000);
    expect(insertStatements('t', TRACE_COLUMNS, [])).toEqual([]);
  });

  it('cuts statements by size, a row too large alone getting one of its own', () => {
    const rows = ['{"id":"a"}', '{"id":"b"}', `{"id":"${'x'.repeat(40)}"}`, '{"id":"d"}'];
    const statements = insertStatements('t', columns, rows, 25);
    expect(statements.map((statement) => JSON.parse(statement.params[0]))).toEqual([
      [{ id: 'a' }, { id: 'b' }],
      [{ id: 'x'.repeat(40) }],
      [{ id: 'd' }],
    ]);
  });

  it('names every column once, with a key of its own', () => {
    for (const list of [TRACE_COLUMNS, SPAN_COLUMNS]) {
      expect(new Set(list.map(([name]) => name)).size).toBe(list.length);
      expect(new Set(list.map(([, key]) => key)).size).toBe(list.length);
    }
    expect([TRACE_COLUMNS.length, SPAN_COLUMNS.length]).toEqual([20, 17]);
  });
});

describe('traceRows', () => {
  it('stores a span kind as its name and its family as kind', () => {
    expect(spanFamily('model.call')).toBe('model.call');
    expect(spanFamily('tool.read_file')).toBe('tool');
    expect(spanFamily('hook.pre_tool')).toBe('hook');
  });

  it('redacts content and attribute values, not names, ids or attribute keys', () => {
    const trace = fixtureTrace({
      name: 'S-name',
      detail: 'VERBOSE',
      sessionId: 'S-session',
      error: 'S',
      inputText: 'S',
      outputText: 'S',
      attributes: { 'S-key': 'S' },
      spans: [{ kind: 'tool.S', error: 'S', input: 'S', output: 'S', attributes: { k: 'S' } }],
    });
    const rows = traceRows(trace, (text) => text.replaceAll('S', '#'));
    expect(JSON.parse(rows.trace)).toMatchObject({
      n: 'S-name',
      si: 'S-session',
      e: '#',
      in: '#',
      out: '#',
      a: { 'S-key': '#' },
      tt: 0,
      c: '0',
    });
    expect(JSON.parse(rows.spans[0] ?? '')).toEqual(
      expect.objectContaining({ n: 'tool.S', k: 'tool', e: '#', in: '#', out: '#', a: { k: '#' } }),
    );
  });

  it('replaces NUL and lone surrogates, which PostgreSQL refuses, keeping paired surrogates', () => {
    const trace = fixtureTrace({
      detail: 'VERBOSE',
      outputText: 'a\u0000b\uD800c😀',
      attributes: { 'k\u0000': '\uDC00' },
    });
    expect(JSON.parse(traceRows(trace).trace)).toMatchObject({
      out: 'a\uFFFDb\uFFFDc😀',
      a: { 'k\uFFFD': '\uFFFD' },
    });
    const plain = fixtureTrace({ outputText: 'tab\there \u0001 ok' });
    expect(JSON.parse(traceRows(plain).trace).out).toBe('tab\there \u0001 ok');
  });

  it('refuses a trace or span id that is not a UUID, and spells ids in lower case', () => {
    const trace = fixtureTrace({ spans: [{}] });
    expect(() => traceRows({ ...trace, id: "x'; drop table helios_traces; --" })).toThrow(
      /id must be a UUID/,
    );
    const span = { ...trace.spans[0]!, id: 'nope' };
    expect(() => traceRows({ ...trace, spans: [span] })).toThrow(/span id must be a UUID/);
    const upper = traceRows({ ...trace, id: trace.id.toUpperCase() });
    expect(upper.id).toBe(trace.id.toLowerCase());
    expect(JSON.parse(upper.spans[0] ?? '').t).toBe(trace.id.toLowerCase());
  });

  it('turns the benchmark trace into a row per span, its totals the sums of the spans', () => {
    const trace = typicalTrace(10, Date.UTC(2030, 0, 1));
    const rows = traceRows(trace);
    expect(rows.spans).toHaveLength(10);
    expect(JSON.parse(rows.trace)).toMatchObject({
      n: 'bench-agent',
      ti: 5 * 1200 + 20,
      c: String(5n * 4_321n),
    });
    expect(rows.spans.map((span) => JSON.parse(span).k)).toEqual(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 'model.call' : 'tool')),
    );
  });

  it('refuses a trace whose times are not finite numbers', () => {
    expect(() => traceRows({ ...fixtureTrace(), startTime: Number.NaN })).toThrow(/startTime/);
    expect(() => traceRows({ ...fixtureTrace(), durationMs: Infinity })).toThrow(/durationMs/);
  });
});
