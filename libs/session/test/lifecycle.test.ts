import { Message, Usage } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  AgentSession,
  Permission,
  PermissionMode,
  SessionClosedError,
  SteeringQueueFullError,
} from '../src/index.js';
import { add, addTool, drain, readBinding, recordingLogger, types } from './helpers.js';

const logger = recordingLogger();

afterEach(() => {
  vi.useRealTimers();
});

describe('AgentSession lifecycle', () => {
  it('runs, then runs again seeing the whole conversation', async () => {
    const model = new ScriptedModel().thenText('first').thenText('second');
    await using session = await AgentSession.open({ model, systemPrompt: 'Be brief.', logger });
    const events = session.events();
    const one = await session.send('hello');
    expect(one).toMatchObject({ type: 'Success', result: 'first', sessionId: session.sessionId });
    const two = await session.runBlocking('again');
    expect(two).toMatchObject({ type: 'Success', result: 'second' });
    expect(one.runId).not.toBe(two.runId);
    expect(model.calls[1]?.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    await session.close();
    const seen = await drain(events);
    expect(types(seen)).toEqual([
      'RunStarted',
      'UserMessageReceived',
      'AssistantText',
      'TurnEnded',
      'RunEnded',
      'RunStarted',
      'UserMessageReceived',
      'AssistantText',
      'TurnEnded',
      'RunEnded',
    ]);
    expect(seen.every((event) => event.sessionId === session.sessionId)).toBe(true);
    expect(seen.slice(0, 5).every((event) => event.runId === one.runId)).toBe(true);
    expect(model.closeCount).toBe(0);
  });

  it('validates session ids', async () => {
    const model = new ScriptedModel();
    for (const id of ['a', 'A-b_c.d:e', 'x'.repeat(128)]) {
      await expect(AgentSession.open({ model, sessionId: id })).resolves.toBeInstanceOf(AgentSession);
    }
    for (const id of ['', '.hidden', 'x'.repeat(129), 'a/b', 'a b', 'é']) {
      await expect(AgentSession.open({ model, sessionId: id })).rejects.toThrow(/session id/);
    }
    const session = await AgentSession.open({ model });
    expect(session.sessionId).toMatch(/^sess-[0-9a-f-]{36}$/);
  });

  it('refuses two tools with one name and options without a model', async () => {
    const model = new ScriptedModel();
    await expect(
      AgentSession.open({ model, tools: [readBinding(addTool), readBinding(addTool)] }),
    ).rejects.toThrow(/two tools are named 'add'/);
    await expect(AgentSession.open({} as never)).rejects.toThrow(/model/);
    await expect(AgentSession.open({ model, eventBufferSize: 0 })).rejects.toThrow(/eventBufferSize/);
  });

  it('steers a run in progress: queued messages compose into one user turn', async () => {
    const model = new ScriptedModel().thenToolCalls([add()], { chunkDelayMs: 5 }).thenText('done');
    const session = await AgentSession.open({
      model,
      tools: [readBinding(addTool)],
      logger,
    });
    const first = session.send('start');
    const second = session.send('also this');
    const third = session.send({ ...Message.user('and this') });
    expect(second).toBe(first);
    expect(third).toBe(first);
    const result = await first;
    expect(result.type).toBe('Success');
    const users = session.history.filter((m) => m.role === 'user');
    expect(users.map((m) => m.content)).toEqual(['start', '[messages composed: 2]\nalso this\nand this']);
    await session.close();
  });

  it('refuses blank messages, a full queue, and sends after close', async () => {
    const model = new ScriptedModel().thenText('x', { chunkDelayMs: 300 }).thenText('y');
    const session = await AgentSession.open({ model, concurrency: { maxQueuedUserMessages: 2 }, logger });
    await expect(session.send('  ')).rejects.toThrow(/non-blank/);
    await expect(session.send(Message.user(''))).rejects.toThrow(/non-blank/);
    await expect(session.send({ role: 'assistant' } as never)).rejects.toThrow(/user message/);
    const run = session.send('one');
    await vi.waitFor(() => expect(model.requests.length).toBe(1));
    void session.send('two');
    void session.send('three');
    await expect(session.send('four')).rejects.toBeInstanceOf(SteeringQueueFullError);
    expect(await run).toMatchObject({ type: 'Success', result: 'y' });
    await session.close();
    await session.close();
    expect(session.closed).toBe(true);
    await expect(session.send('late')).rejects.toBeInstanceOf(SessionClosedError);
    expect(() => session.answer('q-1', { selectedLabels: ['x'] })).toThrow(SessionClosedError);
  });

  it('interrupt cancels the run in progress and the session stays open', async () => {
    const model = new ScriptedModel().thenText(['a', 'b', 'c'], { chunkDelayMs: 50 }).thenText('after');
    const session = await AgentSession.open({ model, logger });
    expect(session.interrupt()).toBe(false);
    const pending = session.send('go');
    await vi.waitFor(() => expect(model.requests.length).toBe(1));
    expect(session.interrupt()).toBe(true);
    const result = await pending;
    expect(result).toMatchObject({ type: 'Cancelled', reason: 'interrupted' });
    expect(await session.send('next')).toMatchObject({ type: 'Success', result: 'after' });
    await session.close();
  });

  it('an interrupt before the first turn ends the run without a model call', async () => {
    const model = new ScriptedModel().thenText('later');
    const session = await AgentSession.open({ model, logger });
    const pending = session.send('go');
    expect(session.interrupt()).toBe(true);
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'interrupted' });
    expect(model.requests).toHaveLength(0);
    expect(await session.send('again')).toMatchObject({ type: 'Success', result: 'later' });
    await session.close();
  });

  it('answers unanswered tool calls with "not run" so the next run is provider-valid', async () => {
    const slow = readBinding({
      ...addTool,
      execute: (_args, context) =>
        new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason)),
        ),
    });
    const model = new ScriptedModel().thenToolCalls([add('c1'), add('c2')]).thenText('fine');
    const session = await AgentSession.open({ model, tools: [slow], logger });
    const events = session.events();
    const pending = session.send('go');
    for await (const event of events) if (event.type === 'ToolUse') break;
    session.interrupt();
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'interrupted' });
    const tools = session.history.filter((m) => m.role === 'tool');
    expect(tools).toEqual([
      Message.tool('c1', 'add', "tool 'add' cancelled: interrupted"),
      Message.tool('c2', 'add', 'tool call not run: the run ended (Cancelled)'),
    ]);
    expect(await session.send('again')).toMatchObject({ type: 'Success', result: 'fine' });
    await session.close();
  });

  it('close cancels the run ("session closed"), ends event streams, and never throws', async () => {
    const model = new ScriptedModel().thenText(['a', 'b'], { chunkDelayMs: 1_000 });
    const session = await AgentSession.open({ model, logger });
    const events = session.events();
    const pending = session.send('go');
    await vi.waitFor(() => expect(model.requests.length).toBe(1));
    await session.close();
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'session closed' });
    const seen = await drain(events);
    expect(seen.at(-1)).toMatchObject({ type: 'RunEnded', result: { type: 'Cancelled' } });
    const late = session.events();
    expect(await late.next()).toEqual({ done: true, value: undefined });
  });

  it('close during a tool cancels the tool through its signal and ends the run "session closed"', async () => {
    let toolSignal: AbortSignal | undefined;
    const hanging = readBinding({
      ...addTool,
      execute: (_args, context) =>
        new Promise((_resolve, reject) => {
          toolSignal = context.signal;
          context.signal.addEventListener('abort', () => reject(context.signal.reason));
        }),
    });
    const model = new ScriptedModel().thenToolCalls([add('c1')]);
    const session = await AgentSession.open({ model, tools: [hanging], logger });
    const pending = session.send('go');
    await vi.waitFor(() => expect(toolSignal).toBeDefined());
    await session.close();
    expect(toolSignal?.aborted).toBe(true);
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'session closed' });
    expect(session.history.at(-1)).toEqual(Message.tool('c1', 'add', "tool 'add' cancelled: session closed"));
    expect(model.requests).toHaveLength(1);
  });

  it('a message sent while a run is ending starts the next run', async () => {
    const model = new ScriptedModel().thenText('one').thenText('two');
    const session = await AgentSession.open({ model, logger });
    let second: Promise<unknown> | undefined;
    const reader = session.events();
    const first = session.send('a');
    for await (const event of reader) {
      if (event.type === 'TurnEnded') {
        await Promise.resolve();
      }
      if (event.type === 'RunEnded') break;
      if (event.type === 'AssistantText' && !second) second = undefined;
    }
    expect(await first).toMatchObject({ result: 'one' });
    second = session.send('b');
    expect(await second).toMatchObject({ result: 'two' });
    await session.close();
  });

  it('close resolves a run queued behind an ending run as Cancelled', async () => {
    const model = new ScriptedModel().thenText('one');
    let release: () => void = () => undefined;
    const session = await AgentSession.open({
      model,
      logger,
      traceListener: { onTrace: () => new Promise<void>((resolve) => (release = resolve)) },
    });
    const first = session.send('a');
    await vi.waitFor(() => expect(model.requests.length).toBe(1));
    await vi.waitFor(() => expect(session.pendingQuestions()).toEqual([]));
    // The run is past its terminal while the trace listener runs: the next message belongs to the next run.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = session.send('b');
    expect(second).not.toBe(first);
    const closing = session.close();
    release();
    await closing;
    expect(await first).toMatchObject({ type: 'Success' });
    expect(await second).toMatchObject({ type: 'Cancelled', reason: 'session closed', durationMs: 0 });
  });

  it('close stops waiting for a run after stopGrace', async () => {
    vi.useFakeTimers();
    const log = recordingLogger();
    const stuck = readBinding({ ...addTool, execute: () => new Promise(() => undefined) });
    const model = new ScriptedModel().thenToolCalls([add()]);
    let release: () => void = () => undefined;
    const session = await AgentSession.open({
      model,
      tools: [stuck],
      logger: log,
      limits: { stopGraceMs: 100 },
      permission: Permission.empty(PermissionMode.DEFAULT),
      traceListener: { onTrace: () => new Promise<void>((resolve) => (release = resolve)) },
    });
    const pending = session.send('go');
    await vi.advanceTimersByTimeAsync(1);
    const closing = session.close();
    await vi.advanceTimersByTimeAsync(150);
    await closing;
    expect(log.lines.some((line) => line.message.includes('still running'))).toBe(true);
    release();
    await vi.advanceTimersByTimeAsync(200);
    expect(await pending).toMatchObject({ type: 'Cancelled', reason: 'session closed' });
  });

  it('keeps usage per run', async () => {
    const model = new ScriptedModel()
      .thenText('a', { usage: Usage.of(10, 5) })
      .thenText('b', { usage: Usage.of(1, 1) });
    const session = await AgentSession.open({ model, logger });
    expect((await session.send('x')).usage).toEqual(Usage.of(10, 5));
    expect((await session.send('y')).usage).toEqual(Usage.of(1, 1));
    expect(session.currentTurnIndex).toBe(2);
    await session.close();
  });
});
