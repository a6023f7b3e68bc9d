import { defineTool, OutputSchema, toolCall, type ToolResult } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AgentSession, RunNotSuccessfulError, SerializedError } from '../src/index.js';
import { add, addTool, customTool, drain, readBinding, recordingLogger } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

describe('unexpected programming errors', () => {
  it('from a tool: no further model or tool call, the run rejects with the same instance, the session closes', async () => {
    const bug = new ReferenceError('x is not defined');
    let toolCalls = 0;
    const broken = customTool('broken', () => {
      toolCalls += 1;
      throw bug;
    });
    const model = new ScriptedModel()
      .thenToolCalls([toolCall('1', 'broken'), toolCall('2', 'broken')])
      .thenText('never');
    const logger = recordingLogger();
    const session = await AgentSession.open({ model, logger, tools: [readBinding(broken)] });
    const stream = session.events();
    const rejection = session.send('go').catch((error: unknown) => error);
    expect(await rejection).toBe(bug);
    expect(toolCalls).toBe(1);
    expect(model.requests).toHaveLength(1);
    await vi.waitFor(() => expect(session.closed).toBe(true));
    const events = await drain(stream);
    expect(events.at(-1)).toMatchObject({
      type: 'Error',
      error: { kind: 'ReferenceError', message: 'x is not defined' },
    });
    await expect(session.send('again')).rejects.toThrow(/closed/);
  });

  it('from a defineTool tool: core lets the ReferenceError through to the session', async () => {
    const bug = new ReferenceError('y is not defined');
    const broken = defineTool({
      name: 'broken',
      description: 'broken',
      parameters: [],
      execute: () => {
        throw bug;
      },
    });
    const model = new ScriptedModel().thenToolCalls([toolCall('1', 'broken')]).thenText('never');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      tools: [readBinding(broken)],
    });
    expect(await session.send('go').catch((error: unknown) => error)).toBe(bug);
    expect(model.requests).toHaveLength(1);
    await vi.waitFor(() => expect(session.closed).toBe(true));
  });

  it('from the model stream and from a hook, including non-Error throws', async () => {
    const thrown = { not: 'an error' };
    const model = new ScriptedModel().thenError(thrown);
    const session = await AgentSession.open({ model, logger: recordingLogger() });
    expect(await session.send('go').catch((e: unknown) => e)).toBe(thrown);
    await vi.waitFor(() => expect(session.closed).toBe(true));

    const bug = new RangeError('Maximum call stack size exceeded');
    const hooked = await AgentSession.open({
      model: new ScriptedModel().thenText('x'),
      logger: recordingLogger(),
      hooks: [
        {
          type: 'PreModelTurn',
          handle: () => {
            throw bug;
          },
        },
      ],
    });
    expect(await hooked.send('go').catch((e: unknown) => e)).toBe(bug);

    const observer = await AgentSession.open({
      model: new ScriptedModel().thenText('x'),
      logger: recordingLogger(),
      hooks: [
        {
          type: 'OnStreamEvent',
          handle: (event) => {
            if (event.type === 'AssistantText') throw bug;
          },
        },
      ],
    });
    expect(await observer.send('go').catch((e: unknown) => e)).toBe(bug);
  });

  it('from a tool that already timed out: the late error ends the session', async () => {
    vi.useFakeTimers();
    const bug = new EvalError('late bug');
    let fail: () => void = () => undefined;
    const late = customTool(
      'late',
      () => new Promise<ToolResult>((_resolve, reject) => (fail = () => reject(bug))),
    );
    const model = new ScriptedModel().thenToolCalls([toolCall('1', 'late')]).thenText('a');
    const logger = recordingLogger();
    const session = await AgentSession.open({
      model,
      logger,
      tools: [readBinding(late)],
      limits: { toolTimeoutDefaultMs: 100 },
    });
    expect(
      (
        await (async () => {
          const pending = session.send('go');
          await vi.advanceTimersByTimeAsync(100);
          return pending;
        })()
      ).type,
    ).toBe('Success');
    fail();
    await vi.advanceTimersByTimeAsync(0);
    expect(session.closed).toBe(true);
    expect(logger.lines.some((l) => l.level === 'error' && l.message.includes('outside any run'))).toBe(true);
  });

  it('from the trace listener rejects the run', async () => {
    const bug = new SyntaxError('bad listener');
    const session = await AgentSession.open({
      model: new ScriptedModel().thenText('x'),
      logger: recordingLogger(),
      traceListener: {
        onTrace: () => {
          throw bug;
        },
      },
    });
    expect(await session.send('go').catch((e: unknown) => e)).toBe(bug);
  });

  it('ordinary errors in the loop become ErrorDuringExecution; cost calculator failure included', async () => {
    const session = await AgentSession.open({
      model: new ScriptedModel().thenText('x'),
      logger: recordingLogger(),
      costCalculator: {
        cost: () => {
          throw new Error('price table missing');
        },
      },
    });
    expect(await session.send('go')).toMatchObject({
      type: 'ErrorDuringExecution',
      error: { kind: 'Error', message: 'price table missing' },
    });
    await session.close();
    const listener = await AgentSession.open({
      model: new ScriptedModel().thenText('x'),
      logger: recordingLogger(),
      traceListener: { onTrace: () => Promise.reject(new Error('store down')) },
    });
    expect((await listener.send('go')).type).toBe('Success');
    await listener.close();
  });

  it('runBlocking with a schema throws RunNotSuccessfulError for a non-Success ending', async () => {
    const session = await AgentSession.open({
      model: new ScriptedModel().thenRefusal('no'),
      logger: recordingLogger(),
    });
    await expect(
      session.runBlocking('go', OutputSchema.fromJsonSchema({ type: 'object' })),
    ).rejects.toBeInstanceOf(RunNotSuccessfulError);
    await session.close();
  });

  it('serializes errors with their cause chain, bounded', () => {
    let error: Error = new Error('root');
    for (let i = 0; i < 20; i += 1) error = new Error(`level ${i}`, { cause: error });
    let serialized: SerializedError | undefined = SerializedError.of(error);
    let depth = 0;
    while (serialized) {
      depth += 1;
      serialized = serialized.cause;
    }
    expect(depth).toBe(16);
    expect(SerializedError.of('text')).toEqual({ kind: 'string', message: 'text', stackTrace: [] });
    const stripped = SerializedError.withoutStackTrace(
      SerializedError.of(new Error('a', { cause: new Error('b') })),
    );
    expect(stripped.stackTrace).toEqual([]);
    expect(stripped.cause?.stackTrace).toEqual([]);
    expect(add().name).toBe('add');
    expect(addTool.name).toBe('add');
  });
});
