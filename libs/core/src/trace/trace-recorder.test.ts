import { describe, expect, it } from 'vitest';
import { CostEstimate } from '../cost/cost-estimate.js';
import { Usage } from '../model/usage.js';
import { hookSpanKind, toolSpanKind, TraceDetail } from './trace.js';
import { TraceRecorder } from './trace-recorder.js';

function clock() {
  let now = 1000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('TraceRecorder', () => {
  it('records spans and totals that equal their sum', () => {
    const time = clock();
    const recorder = new TraceRecorder({
      name: 'run',
      sessionId: 's-1',
      runId: 'r-1',
      modelId: 'm',
      now: time.now,
    });
    const call = recorder
      .span('model.call')
      .usage(Usage.of(100, 20, { cacheWriteTokens: 5, cacheReadTokens: 50 }))
      .cost(CostEstimate.ofMicroUsd(700n))
      .attribute('finishReason', 'TOOL_CALLS');
    time.advance(30);
    call.end();
    call.end(); // ending twice records once
    call.attribute('late', 'ignored');
    const tool = recorder.span(toolSpanKind('Read'));
    time.advance(5);
    tool.fail('file not found');
    recorder.span(hookSpanKind('audit')).usage(Usage.of(1, 1)).cost(CostEstimate.ofMicroUsd(3n)).end();
    recorder.attribute('preset', 'workspace');
    const trace = recorder.finish();
    expect(trace.spans.map((s) => [s.kind, s.status])).toEqual([
      ['model.call', 'OK'],
      ['tool.Read', 'ERROR'],
      ['hook.audit', 'OK'],
    ]);
    expect(trace.spans[0]).toMatchObject({ durationMs: 30, attributes: { finishReason: 'TOOL_CALLS' } });
    expect(trace.spans[1]?.error).toBe('file not found');
    expect(trace.usage).toEqual(Usage.of(101, 21, { cacheWriteTokens: 5, cacheReadTokens: 50 }));
    expect(trace.totalTokens).toBe(177);
    expect(trace.cost.microUsd).toBe(703n);
    expect(trace).toMatchObject({
      name: 'run',
      sessionId: 's-1',
      runId: 'r-1',
      modelId: 'm',
      status: 'OK',
      detail: 'STANDARD',
      durationMs: 35,
    });
    expect(trace.attributes).toEqual({ preset: 'workspace' });
  });

  it('keeps content only under VERBOSE', () => {
    const standard = new TraceRecorder({ name: 'run' });
    standard.span('model.call').content({ input: 'prompt', output: 'answer' }).end();
    const plain = standard.finish({ inputText: 'prompt', outputText: 'answer' });
    expect(plain.spans[0]).not.toHaveProperty('input');
    expect(plain).not.toHaveProperty('inputText');

    const verbose = new TraceRecorder({ name: 'run', detail: TraceDetail.VERBOSE });
    verbose.span('tool.Grep').content({ input: '{"q":"x"}' }).content({ output: 'match' }).end();
    const full = verbose.finish({ inputText: 'prompt', outputText: 'answer', error: 'max-tokens' });
    expect(full.spans[0]).toMatchObject({ input: '{"q":"x"}', output: 'match' });
    expect(full).toMatchObject({
      inputText: 'prompt',
      outputText: 'answer',
      status: 'ERROR',
      error: 'max-tokens',
    });
  });

  it('back-dates a span to a start time read from its clock', () => {
    const time = clock();
    const recorder = new TraceRecorder({ name: 'run', now: time.now });
    const startTime = recorder.now();
    time.advance(12);
    recorder.span(hookSpanKind('audit'), startTime).end();
    expect(recorder.finish().spans[0]).toMatchObject({ startTime: 1000, endTime: 1012, durationMs: 12 });
  });

  it('fails spans still open at the end', () => {
    const recorder = new TraceRecorder({ name: 'run' });
    const open = recorder.span('tool.Slow');
    const trace = recorder.finish();
    expect(open.ended).toBe(true);
    expect(trace.spans[0]).toMatchObject({ status: 'ERROR', error: 'still open when the trace ended' });
    expect(trace.cost).toBe(CostEstimate.ZERO);
  });
});
