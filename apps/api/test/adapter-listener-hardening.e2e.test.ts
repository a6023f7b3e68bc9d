/**
 * Attacks on the adapter listener's connections, performed: connections held open without a token,
 * bodies announced and never sent or trickled, a connection flood past the cap, and requests the parser
 * or router refuses (which must still meet the Origin rule first and answer in the listener's shape).
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  startAdapterListener,
  type AdapterListener,
  type AdapterListenerOptions,
} from '../src/governance/adapter-listener/adapter-listener.js';
import { type AdapterHandler } from '../src/governance/adapter-listener/adapter-routes.js';
import { parseResponse, rawConnection, rawRequest, timed, type RawConnection } from './support/raw-http.js';

const tokens = { adapter: 'adapter-token-0123456789', sdk: 'sdk-token-0123456789' };
const echo: AdapterHandler = async (request) => ({ status: 200, body: { got: request.route } });
/** Small enough that a test crosses them in about a second. */
const TIGHT = { headersTimeoutMs: 400, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 400, maxConnections: 20 };

const listeners: AdapterListener[] = [];
const connections: RawConnection[] = [];
afterEach(async () => {
  while (connections.length) connections.pop()?.destroy();
  while (listeners.length) await listeners.pop()?.close();
});

async function listen(options: Partial<AdapterListenerOptions> = {}): Promise<string> {
  const listener = await startAdapterListener({
    host: '127.0.0.1',
    port: 0,
    tokens,
    handler: echo,
    ...options,
  });
  listeners.push(listener);
  return listener.url;
}

async function open(url: string, initial: string): Promise<RawConnection> {
  const connection = await rawConnection(url, initial);
  connections.push(connection);
  return connection;
}

const evaluateHead = (length: number, token?: string) =>
  `POST /evaluate HTTP/1.1\r\nhost: x\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n` +
  `${token ? `authorization: Bearer ${token}\r\n` : ''}\r\n`;

describe('authentication before the body', () => {
  it('answers 401 at once to a body announced and never sent, and closes the connection', async () => {
    const url = await listen();
    const connection = await open(url, evaluateHead(1_000_000));
    const { ms, value } = await timed(connection.closed);
    expect(ms).toBeLessThan(1_000);
    expect(parseResponse(value)).toEqual({
      status: 401,
      body: '{"error":"Unauthorized","code":"unauthorized"}',
    });
    expect(value.toLowerCase()).toContain('connection: close');
  });

  it('answers 401 to headers and one body byte, then closes: nothing is held for the rest', async () => {
    const url = await listen();
    const attackers = await Promise.all(Array.from({ length: 50 }, () => open(url, `${evaluateHead(100)}{`)));
    const answers = await Promise.all(attackers.map((a) => timed(a.closed)));
    for (const { ms, value } of answers) {
      expect(ms).toBeLessThan(2_000);
      expect(parseResponse(value).status).toBe(401);
    }
  });

  it('refuses the wrong scope on the headers too (SDK token on /evaluate, adapter token on /evidence)', async () => {
    const url = await listen();
    expect((await rawRequest(url, evaluateHead(1_000_000, tokens.sdk))).status).toBe(401);
    const evidence = `POST /evidence HTTP/1.1\r\nhost: x\r\ncontent-length: 1000000\r\nauthorization: Bearer ${tokens.adapter}\r\n\r\n`;
    expect((await rawRequest(url, evidence)).status).toBe(401);
    const head = `HEAD /session/s1/state HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`;
    expect((await rawRequest(url, head)).status).toBe(401);
  });

  it('answers 413 to an oversized body only once the caller is authenticated', async () => {
    const url = await listen();
    const over = await rawRequest(url, evaluateHead(2 * 1024 * 1024, tokens.adapter));
    expect(over).toEqual({ status: 413, body: '{"error":"request_body_too_large"}' });
  });

  it('keeps /healthz open without a token', async () => {
    const url = await listen();
    const reply = await rawRequest(url, 'GET /healthz HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n');
    expect(reply).toEqual({ status: 200, body: '{"status":"ok"}' });
  });
});

describe('timeouts and the connection cap', () => {
  it('closes an authenticated request whose body stops after one byte, after the request timeout', async () => {
    const url = await listen({ connectionLimits: TIGHT });
    const connection = await open(url, `${evaluateHead(100, tokens.adapter)}{`);
    const { ms, value } = await timed(connection.closed);
    expect(ms).toBeGreaterThanOrEqual(TIGHT.requestTimeoutMs - 100);
    expect(ms).toBeLessThan(TIGHT.requestTimeoutMs + 1_500);
    expect(parseResponse(value)).toEqual({ status: 408, body: '{"error":"request_timeout"}' });
  });

  it('cuts off a body trickled a byte at a time, however steadily it comes', async () => {
    const url = await listen({ connectionLimits: TIGHT });
    const connection = await open(url, evaluateHead(1_000, tokens.adapter));
    const trickle = setInterval(() => connection.write(' '), 50);
    const { ms, value } = await timed(connection.closed);
    clearInterval(trickle);
    expect(ms).toBeLessThan(TIGHT.requestTimeoutMs + 1_500);
    expect(parseResponse(value).status).toBe(408);
  });

  it('closes connections whose headers never end, after the headers timeout', async () => {
    const url = await listen({ connectionLimits: TIGHT });
    const connection = await open(url, `POST /evaluate HTTP/1.1\r\nhost: x\r\n`);
    const { ms } = await timed(connection.closed);
    expect(ms).toBeLessThan(TIGHT.headersTimeoutMs + 1_500);
  });

  it('closes a kept-alive connection left idle', async () => {
    const url = await listen({ connectionLimits: TIGHT });
    const connection = await open(url, 'GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    const { ms, value } = await timed(connection.closed);
    expect(parseResponse(value).status).toBe(200);
    expect(ms).toBeLessThan(TIGHT.keepAliveTimeoutMs + 1_500);
  });

  it('refuses connections past the cap, leaves existing work alone, and serves again once attackers time out', async () => {
    const url = await listen({ connectionLimits: TIGHT });
    const legit = await open(url, '');
    const attackers = await Promise.all(
      Array.from({ length: TIGHT.maxConnections - 1 }, () =>
        open(url, `${evaluateHead(100, tokens.adapter)}{`),
      ),
    );
    // Over the cap: closed as soon as it is accepted, without an answer.
    const extra = await open(url, 'GET /healthz HTTP/1.1\r\nhost: x\r\n\r\n');
    const refused = await timed(extra.closed);
    expect(refused.value).toBe('');
    expect(refused.ms).toBeLessThan(500);
    // The connection opened before the flood still works.
    legit.write(
      `POST /evaluate HTTP/1.1\r\nhost: x\r\ncontent-length: 2\r\nauthorization: Bearer ${tokens.adapter}\r\nconnection: close\r\n\r\n{}`,
    );
    expect(parseResponse(await legit.closed)).toMatchObject({ status: 200 });
    // The attackers are cut off by the request timeout, freeing their slots.
    for (const attacker of attackers) expect(parseResponse(await attacker.closed).status).toBe(408);
    const after = await fetch(`${url}/healthz`);
    expect(after.status).toBe(200);
  });
});

describe("requests the parser or router refuses, in the listener's shape", () => {
  const longPath = `/${'a'.repeat(20_000)}`;

  it('answers a 20,000-character path with 414', async () => {
    const url = await listen();
    expect(await rawRequest(url, `GET ${longPath} HTTP/1.1\r\nhost: x\r\n\r\n`)).toEqual({
      status: 414,
      body: '{"error":"uri_too_long"}',
    });
  });

  it('answers a path parameter over the router limit with 414', async () => {
    const url = await listen();
    const path = `/session/${'s'.repeat(2_000)}/state`;
    const reply = await rawRequest(url, `GET ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`);
    expect(reply).toEqual({ status: 414, body: '{"error":"uri_too_long"}' });
  });

  it('answers bad percent-encoding with 400', async () => {
    const url = await listen();
    for (const path of ['/session/%zz/state', '/approval/%E0%A4%A/resolve']) {
      const method = path.startsWith('/session') ? 'GET' : 'POST';
      const reply = await rawRequest(
        url,
        `${method} ${path} HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n`,
      );
      expect(reply, path).toEqual({ status: 400, body: '{"error":"bad_request"}' });
    }
  });

  it('answers headers over the size limit with 431, and a malformed request with 400', async () => {
    const url = await listen();
    const big = await rawRequest(
      url,
      `GET /healthz HTTP/1.1\r\nhost: x\r\nx-big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(big).toEqual({ status: 431, body: '{"error":"request_header_fields_too_large"}' });
    const malformed = await rawRequest(url, 'GET /healthz HTTP/1.1\r\nbad header line\r\n\r\n');
    expect(malformed).toEqual({ status: 400, body: '{"error":"bad_request"}' });
  });

  it('answers 403 first when such a request carries Origin or is OPTIONS', async () => {
    const url = await listen();
    const forbidden = {
      status: 403,
      body: '{"error":"Cross-origin requests are not allowed","code":"cross_origin_request"}',
    };
    expect(
      await rawRequest(url, `GET ${longPath} HTTP/1.1\r\nhost: x\r\norigin: https://evil.example\r\n\r\n`),
    ).toEqual(forbidden);
    expect(await rawRequest(url, `OPTIONS ${longPath} HTTP/1.1\r\nhost: x\r\n\r\n`)).toEqual({
      status: 403,
      body: '{"error":"CORS preflight requests are not allowed","code":"cors_preflight"}',
    });
    expect(
      await rawRequest(
        url,
        'GET /session/%zz/state HTTP/1.1\r\nhost: x\r\norigin: null\r\nconnection: close\r\n\r\n',
      ),
    ).toEqual(forbidden);
    const longParam = `/session/${'s'.repeat(2_000)}/state`;
    expect(
      await rawRequest(
        url,
        `GET ${longParam} HTTP/1.1\r\nhost: x\r\norigin: null\r\nconnection: close\r\n\r\n`,
      ),
    ).toEqual(forbidden);
  });
});
