import { type QueryEvent } from '@helios/session';
import { describe, expect, it } from 'vitest';
import { gapFrame, RetainedEventLog } from './event-log.js';

function text(n: number, size = 1): QueryEvent {
  return {
    type: 'AssistantText',
    sessionId: 's-1',
    runId: 'r-1',
    turnIndex: 0,
    timestamp: n,
    text: 'x'.repeat(size),
  } as QueryEvent;
}

describe('RetainedEventLog', () => {
  it('numbers events from 1 and frames them as SSE with the wire form', () => {
    const log = new RetainedEventLog({ retainedEvents: 4, retainedEventBytes: 1 << 20 });
    const first = log.append(text(1));
    expect(first.seq).toBe(1);
    expect(first.frame).toBe(
      'id: 1\nevent: AssistantText\ndata: {"type":"AssistantText","sessionId":"s-1","runId":"r-1",' +
        '"turnIndex":0,"timestamp":1,"text":"x"}\n\n',
    );
    expect(log.after(0)).toEqual({ kind: 'event', event: first });
    expect(log.after(1)).toBeUndefined();
  });

  it('keeps the newest events by count; a cursor before them gets one gap, then the oldest kept', () => {
    const log = new RetainedEventLog({ retainedEvents: 4, retainedEventBytes: 1 << 20 });
    for (let n = 1; n <= 10; n += 1) log.append(text(n));
    expect([log.oldest, log.head]).toEqual([7, 10]);
    expect(log.after(2)).toEqual({ kind: 'gap', firstMissed: 3, lastMissed: 6 });
    expect(log.after(6)).toMatchObject({ kind: 'event', event: { seq: 7 } });
    expect(log.after(9)).toMatchObject({ kind: 'event', event: { seq: 10 } });
  });

  it('bounds the bytes of the events before the newest, which it always keeps', () => {
    const log = new RetainedEventLog({ retainedEvents: 100, retainedEventBytes: 1_000 });
    for (let n = 1; n <= 5; n += 1) log.append(text(n, 300));
    expect(log.oldest).toBe(3); // 3 and 4 (≈ 800 bytes) before the newest
    log.append(text(6, 100_000));
    expect(log.oldest).toBe(4); // a huge newest event does not push the others out by itself
    expect(log.after(5)).toMatchObject({ kind: 'event', event: { seq: 6 } });
  });

  it('compacts its storage as it slides, keeping the numbering', () => {
    const log = new RetainedEventLog({ retainedEvents: 16, retainedEventBytes: 1 << 20 });
    for (let n = 1; n <= 5_000; n += 1) log.append(text(n));
    expect([log.oldest, log.head]).toEqual([4_985, 5_000]);
    expect(log.after(4_990)).toMatchObject({ kind: 'event', event: { seq: 4_991 } });
  });

  it('frames a gap with the last missed id, so a reconnect continues after it', () => {
    expect(gapFrame('s-1', 3, 6)).toBe(
      'id: 6\nevent: Gap\ndata: {"type":"Gap","sessionId":"s-1","firstMissed":3,"lastMissed":6,"missed":4}\n\n',
    );
  });
});
