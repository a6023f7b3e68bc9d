import { afterEach, describe, expect, it } from 'vitest';
import {
  parseJsonLinesFixture,
  parseSseFixture,
  type RecordedStreamServer,
  serveRecordedStream,
} from './recorded-stream-server.js';

let server: RecordedStreamServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('serveRecordedStream', () => {
  it('serves SSE on 127.0.0.1 and records the request', async () => {
    server = await serveRecordedStream({
      format: 'sse',
      events: [
        { event: 'message_start', data: { type: 'message_start' } },
        { data: 'line one\nline two', id: '7' },
      ],
    });
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const response = await fetch(`${server.url}/v1/messages?beta=1`, {
      method: 'POST',
      headers: { 'x-api-key': 'k', 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true }),
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    expect(await response.text()).toBe(
      'event: message_start\ndata: {"type":"message_start"}\n\nid: 7\ndata: line one\ndata: line two\n\n',
    );
    const [request] = server.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/v1/messages?beta=1' });
    expect(request?.headers['x-api-key']).toBe('k');
    expect(request?.json()).toEqual({ stream: true });
    expect(await request?.outcome).toBe('completed');
  });

  it('serves JSON lines, a list of responses in order, then 500', async () => {
    server = await serveRecordedStream([
      {
        format: 'jsonl',
        events: [{ data: { a: 1 } }, { data: '{"b":2}' }],
        headers: { 'x-request-id': 'r1' },
      },
      { format: 'raw', status: 429, body: '{"error":"rate limited"}' },
    ]);
    const first = await fetch(server.url);
    expect(first.headers.get('x-request-id')).toBe('r1');
    expect(await first.text()).toBe('{"a":1}\n{"b":2}\n');
    const second = await fetch(server.url);
    expect(second.status).toBe(429);
    expect(await second.json()).toEqual({ error: 'rate limited' });
    const third = await fetch(server.url);
    expect(third.status).toBe(500);
    expect(await third.text()).toContain('no recorded response for request 3');
  });

  it('answers from a function and serves an empty raw body', async () => {
    server = await serveRecordedStream((request, index) => ({
      format: 'raw',
      body: `${request.method} ${index}`,
    }));
    expect(await (await fetch(server.url)).text()).toBe('GET 0');
    await server.close();
    server = await serveRecordedStream({ format: 'raw' });
    expect(await (await fetch(server.url)).text()).toBe('');
    await server.close();
    server = await serveRecordedStream({ format: 'sse' });
    expect(await (await fetch(server.url)).text()).toBe('');
  });

  it('paces events and sees the client hang up mid-stream', async () => {
    server = await serveRecordedStream({
      format: 'sse',
      chunkDelayMs: 20,
      events: [{ data: 'one', delayMs: 0 }, { data: 'two' }, { data: 'three' }],
    });
    const controller = new AbortController();
    const response = await fetch(server.url, { signal: controller.signal });
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: one\n\n');
    controller.abort();
    expect(await server.requests[0]?.outcome).toBe('disconnected');
  });
});

describe('fixtures', () => {
  it('parses recorded SSE text', () => {
    const text =
      ': comment\r\nevent: ping\r\ndata: {}\r\n\r\nid: 3\ndata: a\ndata: b\nretry\n\n\n\nevent: done\n\n';
    expect(parseSseFixture(text)).toEqual([
      { event: 'ping', data: '{}' },
      { id: '3', data: 'a\nb' },
      { event: 'done', data: '' },
    ]);
  });

  it('parses JSON lines', () => {
    expect(parseJsonLinesFixture('{"a":1}\n\n{"b":2}\r\n')).toEqual([
      { data: '{"a":1}' },
      { data: '{"b":2}' },
    ]);
  });
});
