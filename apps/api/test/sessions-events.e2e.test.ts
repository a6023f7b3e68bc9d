/**
 * The event stream of a session on the real app: `Ready` first, one SSE event per QueryEvent named by
 * its variant with `id:` lines and the wire form as data, heartbeats, replay after `Last-Event-ID` from
 * the retained log with one explicit gap beyond it, and a paused reader that slows neither a fast
 * reader nor the session.
 */
import { request as httpRequest } from 'node:http';
import { fromWire } from '@helios/session';
import { ScriptedModel } from '@helios/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventReader, type SessionsApp, startSessionsApp } from './support/sessions-app.js';

const RETAINED = 64;
const FLOOD = 2_000;
let app: SessionsApp;

beforeAll(async () => {
  app = await startSessionsApp({
    yaml:
      `sessions:\n  heartbeatMs: 200\n  retainedEvents: ${RETAINED}\n` +
      'agents:\n  short:\n    model: scripted/short\n  chatty:\n    model: scripted/chatty\n' +
      '  flood:\n    model: scripted/flood\n',
    runtime: {
      scriptedModels: {
        short: () => new ScriptedModel().thenText(['one ', 'two ', 'three']).thenText('again'),
        chatty: () => new ScriptedModel().thenText(Array.from({ length: 200 }, (_, i) => `${i} `)),
        // 2,000 deltas of 8 KiB, one a millisecond: far more than a paused socket and the retained log
        // hold, at a pace a reading client keeps up with.
        flood: () =>
          new ScriptedModel().thenText(
            Array.from({ length: FLOOD }, () => 'x'.repeat(8_192)),
            { chunkDelayMs: 1 },
          ),
      },
    },
  });
});

afterAll(async () => {
  await app?.close();
});

async function create(agent: string): Promise<string> {
  return (await app.request('POST', '/v1/sessions', { body: { agent } })).body.sessionId as string;
}

describe('the event stream', () => {
  it('sends Ready first, then each event by variant name with increasing ids and the wire form', async () => {
    const id = await create('short');
    const reader = await app.events(id);
    expect(reader.response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(reader.events[0]).toMatchObject({ event: 'Ready', data: {}, id: undefined });
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'hi' } });
    await reader.waitForEvent('RunEnded');
    const events = reader.events.slice(1);
    expect(events.map((e) => e.event)).toEqual([
      'RunStarted',
      'UserMessageReceived',
      'AssistantText',
      'AssistantText',
      'AssistantText',
      'TurnEnded',
      'RunEnded',
    ]);
    expect(events.map((e) => Number(e.id))).toEqual([1, 2, 3, 4, 5, 6, 7]);
    for (const event of events) {
      expect(event.data.type).toBe(event.event);
      expect(fromWire(event.data).type).toBe(event.event); // the library's wire form, read back
    }
    // Heartbeats keep an idle stream alive.
    const beats = reader.heartbeats;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(reader.heartbeats).toBeGreaterThan(beats);
    reader.close();
  });

  it('replays what a reader missed after Last-Event-ID, and nothing twice', async () => {
    const id = await create('short');
    const first = await app.events(id);
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'hi' } });
    await first.waitForEvent('RunEnded');
    first.close();
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'again' } });
    await app.request('GET', `/v1/sessions/${id}/result?timeout=10`);
    const again = await app.events(id, { lastEventId: '3' });
    // The first run had 7 events (1-7), the second 5 (8-12).
    await again.waitFor((e) => e.event === 'RunEnded' && e.id === '12');
    expect(again.events.slice(1).map((e) => Number(e.id))).toEqual([4, 5, 6, 7, 8, 9, 10, 11, 12]);
    // A new subscriber without Last-Event-ID gets only what comes next.
    const fresh = await app.events(id);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fresh.names()).toEqual(['Ready']);
    again.close();
    fresh.close();
  });

  it('sends one Gap event for what the retained log no longer holds, then the rest', async () => {
    const id = await create('chatty');
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'talk' } });
    await app.request('GET', `/v1/sessions/${id}/result?timeout=10`);
    const reader = await app.events(id, { lastEventId: '1' });
    const ended = await reader.waitForEvent('RunEnded');
    const head = Number(ended.id);
    const [, gap, next] = reader.events;
    expect(gap).toMatchObject({
      event: 'Gap',
      id: String(head - RETAINED),
      data: {
        type: 'Gap',
        sessionId: id,
        firstMissed: 2,
        lastMissed: head - RETAINED,
        missed: head - RETAINED - 1,
      },
    });
    expect(Number(next?.id)).toBe(head - RETAINED + 1);
    expect(reader.events).toHaveLength(1 + 1 + RETAINED);
    reader.close();
  });

  it('ends when the session is deleted', async () => {
    const id = await create('short');
    const reader = await app.events(id);
    await app.request('DELETE', `/v1/sessions/${id}`);
    await reader.ended;
    expect(reader.done).toBe(true);
  });
});

describe('a paused reader', () => {
  it('slows neither a concurrent fast reader nor the session, and later sees a gap', async () => {
    const id = await create('flood');
    const paused = await pausedReader(id);
    const fast = await app.events(id);
    const started = Date.now();
    await app.request('POST', `/v1/sessions/${id}/messages`, { body: { text: 'flood' } });
    const result = await app.request('GET', `/v1/sessions/${id}/result?timeout=60`);
    const runMs = Date.now() - started;
    expect(result.body.type).toBe('Success');
    const fastEnd = await fast.waitForEvent('RunEnded', 20_000);
    // Every event reached the fast reader, in order, without a gap.
    expect(fast.named('Gap')).toEqual([]);
    expect(fast.named('AssistantText')).toHaveLength(FLOOD);
    // The control events did not wait for the paused reader (the library would wait up to 30 s).
    expect(runMs).toBeLessThan(15_000);
    expect(fastEnd.at - started).toBeLessThan(20_000);
    paused.resume();
    const reader = paused.reader;
    await reader.waitForEvent('RunEnded', 30_000);
    const gaps = reader.named('Gap');
    expect(gaps).toHaveLength(1);
    expect(reader.named('RunEnded')).toHaveLength(1);
    fast.close();
    reader.close();
  });
});

/** A stream whose socket reads nothing until `resume()`: the kernel buffers fill, then the server's. */
function pausedReader(sessionId: string): Promise<{ reader: EventReader; resume: () => void }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${app.url}/v1/sessions/${sessionId}/events`, (res) => {
      const reader = new EventReader(res);
      reader.waitForEvent('Ready').then(() => {
        res.pause();
        res.socket.pause();
        resolve({
          reader,
          resume: () => {
            res.socket.resume();
            res.resume();
          },
        });
      }, reject);
    });
    req.on('error', reject);
    req.end();
  });
}
