/**
 * Admission on the real app, every limit at its edge (n admitted, n+1 refused with its fixed body):
 * body size (a declared-too-large body refused unread), requests in flight per principal (open streams
 * count) and server-wide, sessions per principal and per registry with the caller's own oldest finished
 * session evicted, the steering queue; and the raw-socket attacks: Expect: 100-continue smuggling and a
 * request pipelined behind a refusal.
 */
import { ScriptedModel } from '@helios/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SessionRegistry } from '../src/sessions/registry/session-registry.js';
import { rawConnection } from './support/raw-http.js';
import { type EventReader, type Reply, type SessionsApp, startSessionsApp } from './support/sessions-app.js';

const LIMIT_BYTES = 262_144;
const PER_PRINCIPAL = 32;
const SERVER_CAP = 40;
const token = (n: number) => `principal-token-${String(n).padStart(4, '0')}`;
let app: SessionsApp;

beforeAll(async () => {
  const tokens = Array.from(
    { length: 30 },
    (_, n) => `    - { token: ${token(n)}, tenant: t, subject: p${n} }\n`,
  );
  app = await startSessionsApp({
    yaml:
      `auth:\n  tokens:\n${tokens.join('')}` +
      `sessions:\n  maxConcurrentRequests: ${SERVER_CAP}\n` +
      'agents:\n  quick:\n    model: scripted/quick\n  busy:\n    model: scripted/busy\n',
    runtime: {
      scriptedModels: {
        quick: () => new ScriptedModel().thenText('done').thenText('done again'),
        busy: () =>
          new ScriptedModel().thenText(
            Array.from({ length: 400 }, () => '.'),
            { chunkDelayMs: 20 },
          ),
      },
    },
  });
});

afterAll(async () => {
  await app?.close();
});

async function create(n: number, agent = 'quick'): Promise<Reply> {
  return app.request('POST', '/v1/sessions', { token: token(n), body: { agent } });
}

async function finish(n: number, id: string): Promise<void> {
  await app.request('POST', `/v1/sessions/${id}/messages`, { token: token(n), body: { text: 'go' } });
  expect((await app.request('GET', `/v1/sessions/${id}/result?timeout=10`, { token: token(n) })).status).toBe(
    200,
  );
}

function registrySize(): number {
  return app.server.app.get(SessionRegistry).size;
}

describe('the body limit', () => {
  it('admits a body of exactly the limit and refuses one byte more, declared, before reading it', async () => {
    const id = (await create(0)).body.sessionId as string;
    const prefix = '{"text":"';
    const exact = `${prefix}${'a'.repeat(LIMIT_BYTES - prefix.length - 2)}"}`;
    expect(Buffer.byteLength(exact)).toBe(LIMIT_BYTES);
    const admitted = await app.request('POST', `/v1/sessions/${id}/messages`, {
      token: token(0),
      body: exact,
      headers: { 'content-type': 'application/json' },
    });
    expect(admitted.status).toBe(202);
    // One byte more, declared: answered at once, with no body byte sent, and the connection closed.
    for (const auth of ['', `authorization: Bearer ${token(0)}\r\n`]) {
      const connection = await rawConnection(
        app.url,
        `POST /v1/sessions/${id}/messages HTTP/1.1\r\nhost: x\r\n${auth}content-type: application/json\r\n` +
          `content-length: ${LIMIT_BYTES + 1}\r\n\r\n`,
      );
      const text = await connection.closed;
      expect(text).toMatch(/^HTTP\/1\.1 413 /);
      expect(text.toLowerCase()).toContain('connection: close');
      expect(text).toContain('{"error":"REQUEST_TOO_LARGE","message":"the request body is over the limit"}');
    }
  });

  it('refuses a chunked body once it passes the limit', async () => {
    const id = (await create(0)).body.sessionId as string;
    const connection = await rawConnection(
      app.url,
      `POST /v1/sessions/${id}/messages HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token(0)}\r\n` +
        'content-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n',
    );
    const chunk = 'a'.repeat(65_536);
    for (let i = 0; i < 5; i += 1) connection.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
    const text = await connection.closed;
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    expect(text).toContain('"error":"REQUEST_TOO_LARGE"');
  });
});

describe('requests in flight', () => {
  it('admits 32 per principal, open streams included, and answers the 33rd 429 with Retry-After', async () => {
    const id = (await create(1)).body.sessionId as string;
    const streams: EventReader[] = [];
    for (let i = 0; i < PER_PRINCIPAL; i += 1) {
      const stream = await app.events(id, { token: token(1) });
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    const refused = await app.request('GET', '/v1/sessions', { token: token(1) });
    expect(refused).toMatchObject({
      status: 429,
      text: '{"error":"TOO_MANY_REQUESTS","message":"too many requests in flight for this caller"}',
    });
    expect(refused.headers['retry-after']).toBe('5');
    expect(refused.headers.connection).toBe('close');
    // Another principal is not held back by this one.
    expect((await app.request('GET', '/v1/sessions', { token: token(2) })).status).toBe(200);
    // The server-wide cap: 8 more streams of another principal fill it; the 41st request is 503.
    const others: EventReader[] = [];
    for (let i = 0; i < SERVER_CAP - PER_PRINCIPAL; i += 1) {
      const other = (await create(2)).body.sessionId as string;
      others.push(await app.events(other, { token: token(2) }));
    }
    const busy = await app.request('GET', '/v1/sessions', { token: token(3) });
    expect(busy).toMatchObject({
      status: 503,
      text: '{"error":"SERVER_BUSY","message":"too many requests in flight"}',
    });
    expect(busy.headers['retry-after']).toBeUndefined();
    // A stream that closes frees its place.
    streams.pop()?.close();
    others.pop()?.close();
    await eventually(
      async () => (await app.request('GET', '/v1/sessions', { token: token(1) })).status === 200,
    );
    for (const stream of [...streams, ...others]) stream.close();
    for (const n of [1, 2]) {
      for (const s of (await listOf(n)).map((x) => x.sessionId)) {
        await app.request('DELETE', `/v1/sessions/${s}`, { token: token(n) });
      }
    }
  });
});

async function listOf(n: number): Promise<{ sessionId: string }[]> {
  return (await app.request('GET', '/v1/sessions', { token: token(n) })).body as { sessionId: string }[];
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('sessions per principal and per registry', () => {
  it('holds 16 per principal; the 17th evicts the oldest finished one of its own, else 429', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 16; i += 1) ids.push((await create(4)).body.sessionId as string);
    const refused = await create(4);
    expect(refused).toMatchObject({
      status: 429,
      body: {
        error: 'SESSION_LIMIT_REACHED',
        message: 'this caller holds its maximum of sessions and none has finished',
      },
    });
    expect(refused.headers['retry-after']).toBe('5');
    // Two finish; the older of them (by creation) goes first, and only one goes.
    await finish(4, ids[5] as string);
    await finish(4, ids[2] as string);
    expect((await create(4)).status).toBe(201);
    const left = (await listOf(4)).map((s) => s.sessionId);
    expect(left).toHaveLength(16);
    expect(left).not.toContain(ids[2]);
    expect(left).toContain(ids[5]);
    expect((await app.request('GET', `/v1/sessions/${ids[2]}/questions`, { token: token(4) })).status).toBe(
      404,
    );
    expect((await create(4)).status).toBe(201); // ids[5] now
    expect((await create(4)).status).toBe(429);
  });

  it('holds 256 in the registry; the 257th evicts only the caller’s own finished session, else 503', async () => {
    // Fill the registry to exactly 256 with principals 5.., 16 sessions each (the last one fewer).
    let n = 5;
    while (registrySize() < 256) {
      if ((await listOf(n)).length >= 16) n += 1;
      expect((await create(n)).status).toBe(201);
    }
    expect(registrySize()).toBe(256);
    const newcomer = 29;
    const full = await create(newcomer);
    expect(full).toMatchObject({
      status: 503,
      body: { error: 'REGISTRY_FULL', message: 'the server holds its maximum of sessions' },
    });
    expect(full.headers['retry-after']).toBe('5');
    // Another principal's finished session is never evicted for the newcomer…
    const theirs = (await listOf(5))[0]?.sessionId as string;
    await finish(5, theirs);
    expect((await create(newcomer)).status).toBe(503);
    // …but its owner's next session takes its place.
    expect((await create(5)).status).toBe(201);
    expect(registrySize()).toBe(256);
    expect((await app.request('GET', `/v1/sessions/${theirs}/questions`, { token: token(5) })).status).toBe(
      404,
    );
    // Deleting frees places at once (the sessions are not running).
    for (const s of await listOf(5))
      await app.request('DELETE', `/v1/sessions/${s.sessionId}`, { token: token(5) });
    expect((await create(newcomer)).status).toBe(201);
  });
});

describe('the steering queue', () => {
  it('holds 256 messages for a running run and answers the 257th 429', async () => {
    const owner = 28;
    for (const s of await listOf(owner))
      await app.request('DELETE', `/v1/sessions/${s.sessionId}`, { token: token(owner) });
    const id = (await create(owner, 'busy')).body.sessionId as string;
    const stream = await app.events(id, { token: token(owner) });
    await app.request('POST', `/v1/sessions/${id}/messages`, {
      token: token(owner),
      body: { text: 'start' },
    });
    await stream.waitForEvent('AssistantText');
    for (let i = 0; i < 256; i += 1) {
      const queued = await app.request('POST', `/v1/sessions/${id}/messages`, {
        token: token(owner),
        body: { text: `m${i}` },
      });
      expect(queued.status).toBe(202);
    }
    const full = await app.request('POST', `/v1/sessions/${id}/messages`, {
      token: token(owner),
      body: { text: 'one more' },
    });
    expect(full).toMatchObject({ status: 429, body: { error: 'STEERING_QUEUE_FULL' } });
    stream.close();
    await app.request('DELETE', `/v1/sessions/${id}`, { token: token(owner) });
  });
});

describe('raw-socket attacks', () => {
  /** Final responses (not 100 Continue) in what the server sent. */
  function finalStatuses(text: string): number[] {
    return [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])).filter((s) => s !== 100);
  }

  it('continues an Expect: 100-continue upload at once and never parses its body as a request', async () => {
    const id = (await create(3)).body.sessionId as string;
    const smuggled = `GET /v1/sessions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token(3)}\r\n\r\n`;
    const connection = await rawConnection(
      app.url,
      `POST /v1/sessions/${id}/messages HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token(3)}\r\n` +
        `content-type: application/json\r\nexpect: 100-continue\r\ncontent-length: ${smuggled.length}\r\n\r\n`,
    );
    await eventually(() => Promise.resolve(connection.received().startsWith('HTTP/1.1 100 Continue')));
    connection.write(smuggled);
    await eventually(() => Promise.resolve(finalStatuses(connection.received()).length > 0));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(finalStatuses(connection.received())).toEqual([400]); // the body was a (bad) JSON body, nothing else
    connection.destroy();
  });

  it('refuses an unauthenticated Expect: 100-continue request and reads nothing after the refusal', async () => {
    const smuggled =
      `POST /v1/sessions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token(26)}\r\n` +
      'content-type: application/json\r\ncontent-length: 17\r\n\r\n{"agent":"quick"}';
    const connection = await rawConnection(
      app.url,
      'POST /v1/sessions HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\nexpect: 100-continue\r\n' +
        `content-length: ${smuggled.length}\r\n\r\n`,
    );
    await eventually(() => Promise.resolve(finalStatuses(connection.received()).length > 0));
    connection.write(smuggled);
    const text = await connection.closed;
    expect(finalStatuses(text)).toEqual([401]);
    expect(await listOf(26)).toEqual([]);
  });

  it('serves nothing pipelined behind a refusal', async () => {
    const create25 =
      `POST /v1/sessions HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${token(25)}\r\n` +
      'content-type: application/json\r\ncontent-length: 17\r\n\r\n{"agent":"quick"}';
    const connection = await rawConnection(
      app.url,
      `GET /v1/sessions HTTP/1.1\r\nhost: x\r\n\r\n${create25}`,
    );
    const text = await connection.closed;
    expect(finalStatuses(text)).toEqual([401]);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await listOf(25)).toEqual([]);
  });
});
