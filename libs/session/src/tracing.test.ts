import { CostCalculator, Pricing, type Trace, TraceDetail, toolCall, Usage } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentSession, HookOutcome } from './index.js';
import { add, addTool, readBinding, recordingLogger } from '../test/helpers.js';
import { renderPrompt } from './tracing/run-trace.js';

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
