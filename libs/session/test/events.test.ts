import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EventHub } from '../src/events/event-hub.js';
import { AgentSession, CONTROL_EVENT_WAIT_MS, isControlEvent, type QueryEvent } from '../src/index.js';
import { add, addTool, drain, readBinding, recordingLogger, types } from './helpers.js';

afterEach(() => {
  vi.useRealTimers();
});

function event(type: QueryEvent['type'], n = 0): QueryEvent {
  const base = { sessionId: 's', runId: 'r', turnIndex: n, timestamp: 0 };
  switch (type) {
    case 'AssistantText':
      return { ...base, type, text: String(n) };
    case 'Error':
      return { ...base, type, error: { kind: 'x', message: 'm', stackTrace: [] } };
    default:
      return { ...base, type: 'RunStarted' };
  }
}

describe('event streams', () => {
  it('classifies control events', () => {
    expect(['RunEnded', 'QuestionAsked', 'Error'].every((t) => isControlEvent(t as QueryEvent['type']))).toBe(
      true,
    );
    expect(isControlEvent('AssistantText')).toBe(false);
  });

  it('a full reader misses routine events at once, and sees a gap (logged once per gap)', async () => {
    const logger = recordingLogger();
    const hub = new EventHub({ capacity: 2, controlWaitMs: 1000, logger });
    const stream = hub.open();
    for (let i = 0; i < 5; i += 1) expect(hub.publish(event('AssistantText', i))).toBeUndefined();
    expect(stream.buffered).toBe(2);
    expect(stream.missed).toBe(3);
    expect(logger.lines.filter((line) => line.level === 'debug')).toHaveLength(1);
    // A reader that reads is active: it may hold ACTIVE_MARGIN more until the loop yields to it.
    await stream.next();
    for (let i = 0; i < 3; i += 1) void hub.publish(event('AssistantText', i));
    expect(stream.missed).toBe(3);
    expect(hub.needsYield).toBe(true);
    expect(await hub.yieldToReaders()).toBeUndefined();
    // It read nothing during the yield: no longer active, so a full buffer misses again.
    expect(stream.buffered).toBe(4);
    void hub.publish(event('AssistantText', 9));
    expect(stream.missed).toBe(4);
    expect(hub.needsYield).toBe(false);
    expect(logger.lines.filter((line) => line.level === 'debug')).toHaveLength(2);
  });

  it('asks the loop to yield only when a reader that keeps up is full, and not for a stalled one', async () => {
    const hub = new EventHub({ capacity: 4, controlWaitMs: 10, logger: recordingLogger() });
    const stalled = hub.open();
    for (let i = 0; i < 10; i += 1) void hub.publish(event('AssistantText', i));
    expect(hub.needsYield).toBe(false);
    const reader = hub.open();
    const first = reader.next(); // waiting in next(): active
    for (let i = 10; i < 13; i += 1) {
      void hub.publish(event('AssistantText', i));
      expect(hub.needsYield).toBe(false);
    }
    void hub.publish(event('AssistantText', 13)); // the wake is still pending: the buffer is full now
    expect(hub.needsYield).toBe(true);
    void hub.publish(event('AssistantText', 14)); // within the active margin, not missed
    const got: number[] = [];
    const reading = (async () => {
      got.push(Number((await first).value?.turnIndex));
      for await (const e of reader) got.push(e.turnIndex);
    })();
    await hub.yieldToReaders();
    expect(got).toEqual([10, 11, 12, 13, 14]);
    expect(hub.needsYield).toBe(false);
    expect(hub.yieldToReaders()).toBeUndefined();
    expect(stalled.missed).toBe(11);
    expect(reader.missed).toBe(0);
    hub.close();
    await reading;
  });

  it('a control event waits for room, and is delivered when the reader reads within 30 s', async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const hub = new EventHub({ capacity: 1, controlWaitMs: CONTROL_EVENT_WAIT_MS, logger });
    const stream = hub.open();
    void hub.publish(event('AssistantText', 1));
    let delivered = false;
    const wait = hub.publish(event('Error'));
    expect(wait).toBeInstanceOf(Promise);
    void wait?.then(() => (delivered = true));
    await vi.advanceTimersByTimeAsync(29_000);
    expect(delivered).toBe(false);
    expect((await stream.next()).value).toMatchObject({ type: 'AssistantText' });
    await vi.advanceTimersByTimeAsync(0);
    expect(delivered).toBe(true);
    expect((await stream.next()).value).toMatchObject({ type: 'Error' });
    expect(stream.missed).toBe(0);
  });

  it('a control event is dropped for a reader that stays full for 30 s (warning)', async () => {
    vi.useFakeTimers();
    const logger = recordingLogger();
    const hub = new EventHub({ capacity: 1, controlWaitMs: CONTROL_EVENT_WAIT_MS, logger });
    const stalled = hub.open();
    const reading = hub.open();
    void hub.publish(event('AssistantText', 1));
    await reading.next();
    const wait = hub.publish(event('Error'));
    await vi.advanceTimersByTimeAsync(CONTROL_EVENT_WAIT_MS);
    await wait;
    expect(stalled.missed).toBe(1);
    expect(logger.lines.some((line) => line.level === 'warn' && line.message.includes('dropped Error'))).toBe(
      true,
    );
    expect((await reading.next()).value).toMatchObject({ type: 'Error' });
  });

  it('closing a stream releases a waiting control event; closing the hub ends streams after their buffer', async () => {
    const hub = new EventHub({
      capacity: 1,
      controlWaitMs: CONTROL_EVENT_WAIT_MS,
      logger: recordingLogger(),
    });
    const a = hub.open();
    const b = hub.open();
    void hub.publish(event('AssistantText', 1));
    const wait = hub.publish(event('Error'));
    a.close();
    a.close();
    expect(hub.readerCount).toBe(1);
    hub.close();
    await wait;
    expect(types(await drain(b))).toEqual(['AssistantText']);
    expect(hub.readerCount).toBe(0);
    expect(hub.open().closed).toBe(true);
    hub.close();
  });

  it('keeps what each reader buffered when the shared log is cleared under a long burst', async () => {
    const hub = new EventHub({ capacity: 300, controlWaitMs: 10, logger: recordingLogger() });
    const stalled = hub.open();
    const partial = hub.open();
    for (let i = 0; i < 100; i += 1) void hub.publish(event('AssistantText', i));
    for (let i = 0; i < 50; i += 1) expect((await partial.next()).value).toMatchObject({ text: String(i) });
    for (let i = 100; i < 10_000; i += 1) void hub.publish(event('AssistantText', i));
    expect(stalled.buffered).toBe(300);
    expect(stalled.missed).toBe(9_700);
    // Having read, `partial` is active: it holds its capacity plus as much again until a yield.
    expect(partial.buffered).toBe(600);
    expect(partial.missed).toBe(9_350);
    const first = await stalled.next();
    expect(first.value).toMatchObject({ text: '0' });
    const next = await partial.next();
    expect(next.value).toMatchObject({ text: '50' });
    hub.close();
    const rest = await drain(partial);
    expect(rest.at(-1)).toMatchObject({ text: '649' });
  });

  it('a pending read gets the next event; return() and disposal end the stream', async () => {
    const hub = new EventHub({ capacity: 4, controlWaitMs: 10, logger: recordingLogger() });
    const stream = hub.open();
    const next = stream.next();
    void hub.publish(event('AssistantText', 7));
    expect((await next).value).toMatchObject({ text: '7' });
    const waiting = stream.next();
    expect(await stream.return()).toEqual({ done: true, value: undefined });
    expect(await waiting).toEqual({ done: true, value: undefined });
    const other = hub.open();
    other[Symbol.dispose]();
    expect(other.closed).toBe(true);
    const third = hub.open();
    await third[Symbol.asyncDispose]();
    expect(third.closed).toBe(true);
    expect(hub.publish(event('AssistantText'))).toBeUndefined();
  });

  it("a reader's signal ends its stream", async () => {
    const hub = new EventHub({ capacity: 4, controlWaitMs: 10, logger: recordingLogger() });
    const controller = new AbortController();
    const stream = hub.open(controller.signal);
    const pending = stream.next();
    controller.abort();
    expect(await pending).toEqual({ done: true, value: undefined });
    expect(hub.open(AbortSignal.abort()).closed).toBe(true);
  });

  it('a reader that never reads does not slow the loop and sees a gap', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel().thenText(Array.from({ length: 20 }, (_, i) => `t${i}`));
    const session = await AgentSession.open({ model, eventBufferSize: 4, logger: recordingLogger() });
    const stalled = session.events();
    let settled = false;
    const pending = session.send('go').then((r) => {
      settled = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(0);
    // All the run's work is done without waiting on the stalled reader; only its RunEnded waits there.
    expect(model.remainingTurns).toBe(0);
    expect(settled).toBe(false);
    expect(stalled.buffered).toBe(4);
    await vi.advanceTimersByTimeAsync(CONTROL_EVENT_WAIT_MS);
    expect((await pending).type).toBe('Success');
    expect(stalled.missed).toBe(20); // 18 deltas, TurnEnded, and RunEnded after its 30 s wait
    await session.close();
    const gap = await drain(stalled);
    expect(types(gap)).toEqual(['RunStarted', 'UserMessageReceived', 'AssistantText', 'AssistantText']);
  });

  it('a reader waiting in next() gets every event of a loop that never yields, buffer of 4 or not', async () => {
    for (const eventBufferSize of [1, 4, 256]) {
      const model = new ScriptedModel()
        .thenToolCalls([add('c1'), add('c2'), add('c3')])
        .thenText(Array.from({ length: 40 }, (_, i) => `t${i}`));
      const seen: QueryEvent[] = [];
      const session = await AgentSession.open({
        model,
        eventBufferSize,
        logger: recordingLogger(),
        tools: [readBinding(addTool)],
        hooks: [{ type: 'OnStreamEvent', handle: (e) => void seen.push(e) }],
      });
      const reader = session.events();
      const collected: QueryEvent[] = [];
      const reading = (async () => {
        for await (const e of reader) collected.push(e);
      })();
      expect((await session.send('go')).type).toBe('Success');
      await session.close();
      await reading;
      expect(collected.length, `buffer ${eventBufferSize}`).toBeGreaterThan(50);
      expect(collected, `buffer ${eventBufferSize}`).toEqual(seen);
      expect(reader.missed).toBe(0);
    }
  });

  it('a reader keeps every event of a loop that waits between steps', async () => {
    const model = new ScriptedModel().thenText(
      Array.from({ length: 20 }, (_, i) => `t${i}`),
      {
        chunkDelayMs: 1,
      },
    );
    const session = await AgentSession.open({ model, eventBufferSize: 4, logger: recordingLogger() });
    const reader = session.events();
    const collected: QueryEvent[] = [];
    const reading = (async () => {
      for await (const e of reader) collected.push(e);
    })();
    await session.send('go');
    expect(collected.filter((e) => e.type === 'AssistantText')).toHaveLength(20);
    expect(reader.missed).toBe(0);
    await session.close();
    await reading;
  });

  it('RunEnded waits for room in a full reader before the run settles', async () => {
    vi.useFakeTimers();
    const model = new ScriptedModel().thenText(['a', 'b', 'c']);
    const session = await AgentSession.open({ model, eventBufferSize: 2, logger: recordingLogger() });
    const stream = session.events();
    let settled = false;
    const pending = session.send('go').then((r) => {
      settled = true;
      return r;
    });
    await vi.advanceTimersByTimeAsync(10_000);
    expect(settled).toBe(false);
    const first = await stream.next();
    expect(first.value?.type).toBe('RunStarted');
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(true);
    const events: QueryEvent[] = [];
    events.push((await stream.next()).value as QueryEvent, (await stream.next()).value as QueryEvent);
    expect(events.at(-1)?.type).toBe('RunEnded');
    expect((await pending).type).toBe('Success');
    await session.close();
  });
});
