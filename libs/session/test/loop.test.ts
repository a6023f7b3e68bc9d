import {
  Backoff,
  FinishReason,
  IncompleteStreamError,
  Message,
  ProviderError,
  toolCall,
  ToolResult,
  TransientStreamError,
  Usage,
} from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentSession, bindTool, type QueryEvent, type SessionOptions, ToolCategory } from '../src/index.js';
import { add, addTool, customTool, drain, readBinding, recordingLogger, types } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

const noRetryJitter = { maxAttempts: 3, backoff: Backoff.exponential(1_000, 4, 30_000), jitter: 0 };

async function run(model: ScriptedModel, options: Partial<SessionOptions> = {}, text = 'go') {
  const session = await AgentSession.open({ model, logger: recordingLogger(), ...options });
  const stream = session.events();
  const result = await session.send(text);
  await session.close();
  return { result, events: await drain(stream), session };
}

describe('the loop', () => {
  it('dispatches tools one at a time in the model order, then answers', async () => {
    const order: string[] = [];
    const echo = customTool('echo', async (args) => {
      order.push(`start ${String(args['n'])}`);
      await new Promise((resolve) => setTimeout(resolve, 5));
      order.push(`end ${String(args['n'])}`);
      return ToolResult.success(`echo ${String(args['n'])}`);
    });
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('a', 'echo', { n: 1 }), toolCall('b', 'echo', { n: 2 })], { text: 'calling' })
      .thenText('done');
    const { result, events, session } = await run(model, { tools: [readBinding(echo)] });
    expect(result).toMatchObject({ type: 'Success', result: 'done' });
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    expect(types(events)).toEqual([
      'RunStarted',
      'UserMessageReceived',
      'AssistantText',
      'ToolUse',
      'ToolResult',
      'ToolUse',
      'ToolResult',
      'TurnEnded',
      'AssistantText',
      'TurnEnded',
      'RunEnded',
    ]);
    expect(events.filter((e) => e.type === 'TurnEnded').map((e) => (e as { reason: string }).reason)).toEqual(
      ['TOOL_USE', 'END_TURN'],
    );
    expect(session.history.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(model.requests[0]?.tools.map((t) => t.name)).toEqual(['echo']);
  });

  it('turns unknown tools, throws and timeouts into failed results the model sees, never retried', async () => {
    vi.useFakeTimers();
    let calls = 0;
    const thrower = customTool('thrower', () => {
      calls += 1;
      throw new Error('disk full');
    });
    const sleeper = customTool('sleeper', () => new Promise<ToolResult>(() => undefined));
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('1', 'ghost'), toolCall('2', 'thrower'), toolCall('3', 'sleeper')])
      .thenText('ok');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(thrower), bindTool(sleeper, ToolCategory.READ, { timeoutMs: 1_000 })],
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(1_000);
    expect((await pending).type).toBe('Success');
    expect(calls).toBe(1);
    expect(session.history.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual([
      'tool not found: ghost',
      "tool 'thrower' threw: disk full",
      "tool 'sleeper' timed out after 1000 ms",
    ]);
    await session.close();
  });

  it('uses the default tool timeout and a thrown non-abort error from a tool that saw its timeout', async () => {
    vi.useFakeTimers();
    const obeys = customTool(
      'obeys',
      (_args, signal) =>
        new Promise<ToolResult>((_resolve, reject) =>
          signal.addEventListener('abort', () => reject(signal.reason)),
        ),
    );
    const model = new ScriptedModel().thenToolCalls([toolCall('1', 'obeys')]).thenText('ok');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(obeys)],
      limits: { toolTimeoutDefaultMs: 500 },
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(500);
    expect((await pending).type).toBe('Success');
    expect(session.history.find((m) => m.role === 'tool')?.content).toBe(
      "tool 'obeys' timed out after 500 ms",
    );
    await session.close();
  });

  it('logs what a tool that ignored its timeout does later: a late result, a late failure', async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const late = (
      name: string,
      settle: (resolve: (r: ToolResult) => void, reject: (e: Error) => void) => void,
    ) =>
      customTool(
        name,
        () => new Promise<ToolResult>((resolve, reject) => setTimeout(() => settle(resolve, reject), 2_000)),
      );
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('1', 'finisher'), toolCall('2', 'failer')])
      .thenText('ok');
    const session = await AgentSession.open({
      model,
      logger,
      tools: [
        bindTool(
          late('finisher', (resolve) => resolve(ToolResult.success('late'))),
          ToolCategory.READ,
          { timeoutMs: 100 },
        ),
        bindTool(
          late('failer', (_resolve, reject) => reject(new Error('late failure'))),
          ToolCategory.READ,
          { timeoutMs: 100 },
        ),
      ],
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(200);
    expect((await pending).type).toBe('Success');
    await vi.advanceTimersByTimeAsync(2_000);
    expect(logger.lines.map((line) => line.message)).toEqual(
      expect.arrayContaining([
        "tool 'finisher' finished after the session stopped waiting",
        "tool 'failer' failed after the session stopped waiting",
      ]),
    );
    await session.close();
  });

  it('refuses a binding with an unknown category or a non-positive timeout', () => {
    const echo = customTool('echo', () => ToolResult.success('x'));
    expect(() => bindTool(echo, 'MAGIC' as ToolCategory)).toThrow(/unknown tool category/);
    expect(() => bindTool(echo, ToolCategory.READ, { timeoutMs: 0 })).toThrow(/timeoutMs/);
  });

  it('appends a user message announcing tool attachments', async () => {
    const png = { type: 'InlineFile', data: new Uint8Array([1]), mimeType: 'image/png' } as const;
    const shot = customTool('shot', () => ToolResult.success('here', { attachments: [png] }));
    const model = new ScriptedModel().thenToolCalls([toolCall('1', 'shot')]).thenText('seen');
    const { session } = await run(model, { tools: [readBinding(shot)] });
    const announce = session.history[3];
    expect(announce).toMatchObject({
      role: 'user',
      content: "[tool 'shot' returned 1 attachment(s) for inspection]",
    });
    expect(announce?.role === 'user' && announce.inlineFiles).toEqual([png]);
  });

  it('retries a transient stream error with TurnRetried, then succeeds', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel()
      .thenError(new TransientStreamError('reset', 'testing'))
      .thenError(new TransientStreamError('reset again', 'testing'))
      .thenText('ok');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      limits: { streamRetry: noRetryJitter },
    });
    const stream = session.events();
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(model.requests).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(4_000);
    expect((await pending).type).toBe('Success');
    await session.close();
    const retried = (await drain(stream)).filter((e) => e.type === 'TurnRetried');
    expect(retried).toMatchObject([
      {
        attemptNumber: 1,
        backoffMs: 1_000,
        providerName: 'testing',
        error: { kind: 'TransientStreamError', message: 'reset' },
      },
      { attemptNumber: 2, backoffMs: 4_000 },
    ]);
  });

  it('gives up after maxAttempts with ErrorTransientStream, and never retries other errors', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel()
      .thenError(new TransientStreamError('a', 'p'))
      .thenError(new TransientStreamError('b', 'p'))
      .thenError(new TransientStreamError('c', 'p'));
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      limits: { streamRetry: noRetryJitter },
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(await pending).toMatchObject({ type: 'ErrorTransientStream', providerName: 'p', attemptsMade: 3 });
    await session.close();
    const other = new ScriptedModel().thenError(new ProviderError('bad request', 400));
    const { result } = await run(other);
    expect(result).toMatchObject({
      type: 'ErrorDuringExecution',
      error: { kind: 'ProviderError', message: 'bad request' },
    });
    expect(other.requests).toHaveLength(1);
  });

  it('interrupt during a retry backoff cancels at once', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel().thenError(new TransientStreamError('a', 'p'));
    const session = await AgentSession.open({ model, logger: recordingLogger() });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(10);
    session.interrupt();
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'interrupted' });
    await session.close();
  });

  it('ends a stream that goes quiet after streamIdleTimeout', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel().thenText(['a', 'b'], { chunkDelayMs: 2_000 });
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      limits: { streamIdleTimeoutMs: 1_000 },
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await pending).toMatchObject({
      type: 'ErrorDuringExecution',
      error: { kind: 'StreamIdleTimeoutError' },
    });
    await session.close();
  });

  it('a stream without MessageStop is an error', async () => {
    const model = new ScriptedModel().thenChunks([{ type: 'TextDelta', text: 'half' }]);
    const { result } = await run(model);
    expect(result).toMatchObject({
      type: 'ErrorDuringExecution',
      error: { kind: IncompleteStreamError.name },
    });
  });

  it('LENGTH ends ErrorDuringExecution(max-tokens); CONTENT_FILTER and REFUSAL end Refusal; ERROR ends ProviderError', async () => {
    const length = await run(new ScriptedModel().thenFinish(FinishReason.LENGTH, 'partial'));
    expect(length.result).toMatchObject({ type: 'ErrorDuringExecution', error: { kind: 'max-tokens' } });
    expect(length.result.type === 'ErrorDuringExecution' && length.result.error.message).toContain('partial');
    const filtered = await run(new ScriptedModel().thenFinish(FinishReason.CONTENT_FILTER));
    expect(filtered.result).toMatchObject({ type: 'Refusal', refusalText: '[refused without text]' });
    const refused = await run(new ScriptedModel().thenRefusal('no'));
    expect(refused.result).toMatchObject({ type: 'Refusal', refusalText: 'no' });
    const error = await run(new ScriptedModel().thenFinish(FinishReason.ERROR, 'oops'));
    expect(error.result).toMatchObject({ type: 'ErrorDuringExecution', error: { kind: 'ProviderError' } });
    expect(error.session.history.map((m) => m.role)).toEqual(['user']);
  });

  it('STOP with queued steering continues the run', async () => {
    const model = new ScriptedModel().thenText('first', { chunkDelayMs: 300 }).thenText('second');
    const session = await AgentSession.open({ model, logger: recordingLogger() });
    const pending = session.send('one');
    await vi.waitFor(() => expect(model.requests).toHaveLength(1));
    void session.send('two');
    expect(await pending).toMatchObject({ type: 'Success', result: 'second' });
    expect(session.history.map((m) => m.content)).toEqual(['one', 'first', 'two', 'second']);
    await session.close();
  });

  it('emits thinking, citations and the per-turn usage', async () => {
    const citation = { url: 'https://example.com', metadata: {} };
    const model = new ScriptedModel().thenText('answer', {
      thinking: 'hmm',
      citations: [citation],
      usage: Usage.of(3, 4),
      metadata: { sig: 'x' },
    });
    const { result, events, session } = await run(model);
    expect(result).toMatchObject({ type: 'Success', citations: [citation] });
    const byType = (type: string) => events.find((e) => e.type === type) as QueryEvent;
    expect(byType('AssistantThinking')).toMatchObject({ text: 'hmm', signature: '' });
    expect(byType('AssistantCitations')).toMatchObject({ citations: [citation] });
    expect(byType('TurnEnded')).toMatchObject({ usage: Usage.of(3, 4), reason: 'END_TURN' });
    expect(session.history[1]).toEqual(
      Message.assistant('answer', { metadata: { sig: 'x' }, thinking: 'hmm' }),
    );
  });

  it('an empty conversation ends EmptyHistory', async () => {
    const model = new ScriptedModel();
    const { result } = await run(model, {
      hooks: [{ type: 'OnUserMessage', handle: () => ({ type: 'Block', reason: 'no' }) }],
    });
    expect(result).toMatchObject({ type: 'ErrorDuringExecution', error: { kind: 'EmptyHistory' } });
  });

  it('offers only visible tools', async () => {
    const model = new ScriptedModel().thenText('x').thenText('y');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [bindTool(addTool, ToolCategory.READ, { visible: ({ turnIndex }) => turnIndex > 1 })],
    });
    await session.send('a');
    await session.send('b');
    expect(model.requests.map((r) => r.tools.length)).toEqual([0, 1]);
    await session.close();
  });

  it('dispatches a tool call with the call id and arguments as written', async () => {
    const seen: unknown[] = [];
    const spy = customTool('spy', (args) => {
      seen.push(args);
      return ToolResult.success('ok');
    });
    const model = new ScriptedModel().thenToolCalls([toolCall('1', 'spy', { x: 1 })]).thenText('y');
    await run(model, { tools: [readBinding(spy)] });
    expect(seen).toEqual([{ x: 1 }]);
    expect(add().id).toBe('c1');
  });
});
