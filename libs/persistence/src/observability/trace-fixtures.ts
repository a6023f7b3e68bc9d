/**
 * Hand-made traces for the trace store's tests and the trace-ingest benchmark: every field of core's
 * Trace set on purpose, spans in start order (the order getTrace returns them in). Not exported from
 * the package entry.
 */
import { CostEstimate, newId, type Span, type Trace, Usage } from '@helios/core';

export interface SpanFixture extends Partial<Omit<Span, 'usage' | 'cost'>> {
  readonly tokens?: readonly [input: number, output: number, cacheWrite?: number, cacheRead?: number];
  readonly costMicroUsd?: bigint;
}

export interface TraceFixture extends Partial<Omit<Trace, 'spans' | 'usage' | 'cost' | 'totalTokens'>> {
  readonly spans?: readonly SpanFixture[];
}

/** A span starting `offsetMs` after `traceStart`, lasting `durationMs` (defaults: 0 and 10). */
export function fixtureSpan(traceStart: number, index: number, fixture: SpanFixture = {}): Span {
  const [input, output, cacheWrite = 0, cacheRead = 0] = fixture.tokens ?? [0, 0];
  const startTime = fixture.startTime ?? traceStart + index;
  const durationMs = fixture.durationMs ?? 10;
  const { tokens: _tokens, costMicroUsd, ...rest } = fixture;
  return {
    id: newId(),
    kind: 'model.call',
    endTime: startTime + durationMs,
    status: 'OK',
    attributes: {},
    ...rest,
    startTime,
    durationMs,
    usage: Usage.of(input, output, { cacheWriteTokens: cacheWrite, cacheReadTokens: cacheRead }),
    cost: CostEstimate.ofMicroUsd(costMicroUsd ?? 0n),
  };
}

/** A trace whose totals are its spans' sums, as TraceRecorder makes them. */
export function fixtureTrace(fixture: TraceFixture = {}): Trace {
  const startTime = fixture.startTime ?? Date.UTC(2030, 0, 1);
  const durationMs = fixture.durationMs ?? 100;
  const spans = (fixture.spans ?? []).map((span, index) => fixtureSpan(startTime, index, span));
  const usage = spans.reduce((sum, span) => Usage.plus(sum, span.usage), Usage.ZERO);
  const { spans: _spans, ...rest } = fixture;
  return {
    id: newId(),
    name: 'agent',
    detail: 'STANDARD',
    endTime: startTime + durationMs,
    status: fixture.error === undefined ? 'OK' : 'ERROR',
    attributes: {},
    ...rest,
    startTime,
    durationMs,
    spans,
    usage,
    totalTokens: usage.totalTokens,
    cost: CostEstimate.sum(spans.map((span) => span.cost)),
  };
}

/** A trace of `spanCount` spans with typical STANDARD-detail attributes (the benchmark's shape). */
export function typicalTrace(spanCount: number, startTime = Date.now()): Trace {
  const spans: SpanFixture[] = [];
  for (let index = 0; index < spanCount; index += 1) {
    const model = index % 2 === 0;
    spans.push({
      kind: model ? 'model.call' : 'tool.read_file',
      durationMs: 5 + index,
      attributes: model
        ? { 'model.id': 'claude-sonnet-4-5', 'model.stop_reason': 'tool_use' }
        : { 'tool.call_id': `call_${index}`, 'tool.outcome': 'ok' },
      ...(model ? { tokens: [1200 + index, 80, 0, 1024], costMicroUsd: 4_321n } : {}),
    });
  }
  return fixtureTrace({
    name: 'bench-agent',
    sessionId: `session-${startTime % 97}`,
    runId: newId(),
    modelId: 'claude-sonnet-4-5',
    startTime,
    durationMs: 50 + spanCount * 10,
    attributes: { preset: 'default', 'turns.count': String(spanCount / 2) },
    spans,
  });
}
