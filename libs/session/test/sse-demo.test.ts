/**
 * A scripted demo agent streamed over Server-Sent Events, as the runtime will stream a session: one
 * frame per event in the wire form, written while the loop runs. The in-memory model never yields, so
 * this is the case where a reader that keeps up used to lose events; the client must see every one.
 */
import { createServer, type Server } from 'node:http';
import { type AddressInfo } from 'node:net';
import { ScriptedModel } from '@helios/testing';
import { createParser } from 'eventsource-parser';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentSession, fromWire, type QueryEvent, toWire } from '../src/index.js';
import { add, addTool, readBinding, recordingLogger } from './helpers.js';

let server: Server | undefined;

afterEach(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

function demoModel(): ScriptedModel {
  const model = new ScriptedModel();
  for (let turn = 0; turn < 20; turn += 1) {
    model.thenToolCalls([add(`a${turn}`, turn, 1), add(`b${turn}`, turn, 2)], { text: `step ${turn}` });
  }
  return model.thenText(Array.from({ length: 300 }, (_, i) => `word${i} `));
}

/** Serves one demo run per request: opens a session, streams its events as SSE, ends after close. */
async function serveDemo(seen: QueryEvent[]): Promise<string> {
  server = createServer((_request, response) => {
    void (async () => {
      const session = await AgentSession.open({
        model: demoModel(),
        logger: recordingLogger(),
        tools: [readBinding(addTool)],
        eventBufferSize: 16,
        hooks: [{ type: 'OnStreamEvent', handle: (event) => void seen.push(event) }],
      });
      response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const events = session.events();
      const streaming = (async () => {
        for await (const event of events) {
          response.write(`event: ${event.type}\ndata: ${JSON.stringify(toWire(event))}\n\n`);
        }
      })();
      await session.send('run the demo');
      await session.close();
      await streaming;
      response.end();
    })();
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server?.address() as AddressInfo).port}/`;
}

describe('SSE demo', () => {
  it('a client of a scripted agent streamed over SSE receives every event, in order', async () => {
    const seen: QueryEvent[] = [];
    const url = await serveDemo(seen);
    const received: QueryEvent[] = [];
    const names: string[] = [];
    const parser = createParser({
      onEvent: (message) => {
        names.push(message.event ?? 'message');
        received.push(fromWire(JSON.parse(message.data)));
      },
    });
    const response = await fetch(url);
    const decoder = new TextDecoder();
    for await (const chunk of response.body as ReadableStream<Uint8Array>) {
      parser.feed(decoder.decode(chunk, { stream: true }));
    }
    expect(seen.length).toBeGreaterThan(400);
    expect(received).toEqual(seen);
    expect(names).toEqual(seen.map((event) => event.type));
    expect(received.at(-1)?.type).toBe('RunEnded');
  });
});
