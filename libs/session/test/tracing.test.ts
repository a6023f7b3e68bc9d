import { CostCalculator, Pricing, type Trace, TraceDetail, toolCall, Usage } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentSession, HookOutcome, type ResultMessage } from '../src/index.js';
import { add, addTool, readBinding, recordingLogger } from './helpers.js';
import { renderPrompt } from '../src/tracing/run-trace.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('tracing', () => {
  it('hands one trace per run, before the run settles, with totals equal to the result', async () => {
    const traces: Trace[] = [];
    let settledBeforeTrace = false;
    const model = new ScriptedModel()
      .thenToolCalls([add('1'), toolCall('2', 'ghost')], { usage: Usage.of(100, 10) })
      .thenText('done', { usage: Usage.of(50, 5) })
      .thenRefusal('no');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      costCalculator: CostCalculator.staticTable({ scripted: Pricing.ofUsdPerMillion(1_000, 2_000) }),
      hooks: [{ type: 'PostToolUse', name: 'audit', handle: () => HookOutcome.inject('noted') }],
      traceListener: { onTrace: (trace) => void traces.push(trace) },
    });
    const first = session.send('go');
    void first.then(() => (settledBeforeTrace = traces.length === 0));
    const result = await first;
    expect(settledBeforeTrace).toBe(false);
    expect(traces).toHaveLength(1);
    const trace = traces[0] as Trace;
    expect(trace).toMatchObject({
      sessionId: session.sessionId,
      runId: result.runId,
      modelId: 'scripted',
      detail: 'STANDARD',
    });
    expect(trace.usage).toEqual(result.usage);
    expect(trace.cost.microUsd).toBe(result.cost.microUsd);
    expect(result.cost.microUsd).toBe(150_000n + 30_000n);
    expect(trace.spans.map((s) => s.kind)).toEqual([
      'model.call',
      'tool.add',
      'hook.audit',
      'tool.ghost',
      'hook.audit',
      'model.call',
    ]);
    expect(trace.spans.every((s) => s.input === undefined && s.output === undefined)).toBe(true);
    expect(trace.inputText).toBeUndefined();
    const refused = await session.send('again');
    expect(refused.type).toBe('Refusal');
    expect(traces[1]).toMatchObject({ status: 'ERROR', error: 'refused: no', runId: refused.runId });
    await session.close();
  });

  it("traces and prices the default compactor's summary call, so trace totals equal the result's", async () => {
    const traces: Trace[] = [];
    // Turn one fills the context; the summary call answers from the same scripted model, then turn two.
    const model = new ScriptedModel({ contextWindow: 20_100 })
      .thenText('x'.repeat(300), { usage: Usage.of(100, 80) })
      .thenText('the summary', { usage: Usage.of(60, 10) })
      .thenText('done', { usage: Usage.of(20, 5) });
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      costCalculator: CostCalculator.staticTable({ scripted: Pricing.ofUsdPerMillion(1_000, 2_000) }),
      traceListener: { onTrace: (trace) => void traces.push(trace) },
    });
    const results = [await session.send('a'.repeat(300)), await session.send('next')];
    expect(results.map((r) => r.type)).toEqual(['Success', 'Success']);
    const index = traces.findIndex((t) => t.spans.some((s) => s.attributes['purpose'] === 'compaction'));
    const [trace, result] = [traces[index] as Trace, results[index] as ResultMessage];
    const compaction = trace.spans.find((s) => s.attributes['purpose'] === 'compaction');
    expect(compaction).toMatchObject({
      kind: 'model.call',
      status: 'OK',
      attributes: { modelId: 'scripted' },
      usage: Usage.of(60, 10),
    });
    expect(compaction?.cost.microUsd).toBe(60_000n + 20_000n);
    expect(trace.usage).toEqual(result.usage);
    expect(trace.cost.microUsd).toBe(result.cost.microUsd);
    for (const [i, each] of results.entries()) {
      expect(traces[i]?.usage, `run ${i}`).toEqual(each.usage);
      expect(traces[i]?.cost.microUsd, `run ${i}`).toBe(each.cost.microUsd);
    }
    await session.close();
  });

  it('compaction tokens without a model id end the run instead of going unpriced past the budget', async () => {
    const traces: Trace[] = [];
    const model = new ScriptedModel().thenText('x'.repeat(40)).thenText('never asked');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      limits: { maxContextTokens: 40 },
      contextCompactor: { compact: (history) => Promise.resolve({ history, usage: Usage.of(5, 5) }) },
      traceListener: { onTrace: (trace) => void traces.push(trace) },
    });
    const result = await session.send('a'.repeat(200));
    expect(result).toMatchObject({
      type: 'ErrorDuringExecution',
      error: { kind: 'UnpricedUsage', message: expect.stringContaining('10 tokens without the id') },
    });
    expect(result.usage.totalTokens).toBe(10);
    expect(traces[0]?.spans.find((s) => s.attributes['purpose'] === 'compaction')).toMatchObject({
      status: 'ERROR',
      usage: Usage.of(5, 5),
    });
    expect(model.remainingTurns).toBe(2);
    await session.close();
  });

  it('VERBOSE adds prompt, answer, tool arguments and results', async () => {
    const traces: Trace[] = [];
    const model = new ScriptedModel().thenToolCalls([add('1')]).thenText('three');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      systemPrompt: 'sys',
      tools: [readBinding(addTool)],
      traceListener: { onTrace: (trace) => void traces.push(trace) },
      traceDetail: TraceDetail.VERBOSE,
    });
    await session.send('what is 1+2');
    await session.close();
    const trace = traces[0] as Trace;
    expect(trace.inputText).toBe('what is 1+2');
    expect(trace.outputText).toBe('three');
    const tool = trace.spans.find((s) => s.kind === 'tool.add');
    expect(tool).toMatchObject({ input: '{"a":1,"b":2}', output: '3' });
    const calls = trace.spans.filter((s) => s.kind === 'model.call');
    expect(calls[0]?.input).toBe('[system] sys\n[user] what is 1+2');
    expect(calls[1]?.output).toBe('three');
    expect(renderPrompt([{ role: 'tool', toolCallId: '1', toolName: 'add', content: '3' }])).toBe(
      '[tool add] 3',
    );
  });

  it('a hook span lasts as long as the deciding hook ran', async () => {
    vi.useFakeTimers();
    const traces: Trace[] = [];
    const session = await AgentSession.open({
      model: new ScriptedModel().thenToolCalls([add('1')]).thenText('done'),
      logger: recordingLogger(),
      tools: [readBinding(addTool)],
      hooks: [
        {
          type: 'PostToolUse',
          name: 'slow',
          handle: async () => {
            await new Promise((resolve) => setTimeout(resolve, 40));
            return HookOutcome.mutateResult('checked');
          },
        },
      ],
      traceListener: { onTrace: (trace) => void traces.push(trace) },
    });
    const result = session.send('go');
    await vi.advanceTimersByTimeAsync(40);
    expect((await result).type).toBe('Success');
    await session.close();
    expect(traces[0]?.spans.find((s) => s.kind === 'hook.slow')?.durationMs).toBe(40);
  });

  it('records a failed model attempt as a failed span', async () => {
    const traces: Trace[] = [];
    const model = new ScriptedModel().thenError(new Error('boom'));
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      traceListener: { onTrace: (trace) => void traces.push(trace) },
    });
    await session.send('x');
    await session.close();
    expect(traces[0]?.spans[0]).toMatchObject({ kind: 'model.call', status: 'ERROR', error: 'Error: boom' });
  });
});
