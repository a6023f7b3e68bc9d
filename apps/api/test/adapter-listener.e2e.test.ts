import { request as httpRequest } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import {
  startAdapterListener,
  type AdapterListener,
} from '../src/governance/adapter-listener/adapter-listener.js';
import {
  type AdapterHandler,
  type AdapterRequest,
} from '../src/governance/adapter-listener/adapter-routes.js';

const tokens = { adapter: 'adapter-token-0123456789', sdk: 'sdk-token-0123456789' };
const MIB = 1024 * 1024;
const listeners: AdapterListener[] = [];
afterEach(async () => {
  while (listeners.length) await listeners.pop()?.close();
});

async function listen(handler?: AdapterHandler, onFault?: (e: unknown) => void): Promise<string> {
  const listener = await startAdapterListener({
    host: '127.0.0.1',
    port: 0,
    tokens,
    ...(handler ? { handler } : {}),
    ...(onFault ? { onFault } : {}),
  });
  listeners.push(listener);
  return listener.url;
}

/** Raw HTTP (fetch refuses to send some headers and methods we need to test). */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, body: text ? (JSON.parse(text) as unknown) : undefined }),
      );
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

const auth = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });
const echo: AdapterHandler = async (request) => ({ status: 200, body: { got: request } });

describe('the adapter listener', () => {
  it('answers /healthz without a token', async () => {
    const url = await listen();
    expect(await send(`${url}/healthz`, 'GET', {})).toEqual({ status: 200, body: { status: 'ok' } });
  });

  it('refuses any Origin header, even "null", and OPTIONS, before anything else', async () => {
    const url = await listen(echo);
    for (const origin of ['https://evil.example', 'null']) {
      expect((await send(`${url}/healthz`, 'GET', { origin })).status).toBe(403);
      expect((await send(`${url}/evaluate`, 'POST', { ...auth(tokens.adapter), origin }, '{}')).status).toBe(
        403,
      );
      // Origin wins over an oversized body and a missing token.
      expect((await send(`${url}/evaluate`, 'POST', { origin }, 'x'.repeat(MIB + 1))).status).toBe(403);
    }
    expect((await send(`${url}/evaluate`, 'OPTIONS', auth(tokens.adapter))).status).toBe(403);
  });

  it('checks the token before the body: 401 for an unauthenticated oversized body, 413 once authenticated; exactly 1 MiB is read', async () => {
    const url = await listen(echo);
    const unauthenticated = await send(
      `${url}/evaluate`,
      'POST',
      { 'content-type': 'application/json' },
      'x'.repeat(MIB + 1),
    );
    expect(unauthenticated).toEqual({ status: 401, body: { error: 'Unauthorized', code: 'unauthorized' } });
    const over = await send(`${url}/evaluate`, 'POST', auth(tokens.adapter), 'x'.repeat(MIB + 1));
    expect(over).toEqual({ status: 413, body: { error: 'request_body_too_large' } });
    const value = 'y'.repeat(MIB - 10);
    const exact = `{"v":"${value}"}`;
    expect(Buffer.byteLength(exact)).toBeLessThanOrEqual(MIB);
    const ok = await send(`${url}/evaluate`, 'POST', auth(tokens.adapter), exact);
    expect(ok.status).toBe(200);
  });

  it('requires the token of the route scope', async () => {
    const url = await listen(echo);
    const unauthorized = { status: 401, body: { error: 'Unauthorized', code: 'unauthorized' } };
    expect(await send(`${url}/evaluate`, 'POST', { 'content-type': 'application/json' }, '{}')).toEqual(
      unauthorized,
    );
    expect(await send(`${url}/evaluate`, 'POST', auth(tokens.sdk), '{}')).toEqual(unauthorized);
    expect(await send(`${url}/evaluate`, 'POST', auth(`${tokens.adapter}x`), '{}')).toEqual(unauthorized);
    expect(await send(`${url}/evidence`, 'POST', auth(tokens.adapter), '{}')).toEqual(unauthorized);
    expect((await send(`${url}/evidence`, 'POST', auth(tokens.sdk), '{}')).status).toBe(200);
    expect(await send(`${url}/context`, 'POST', auth(tokens.adapter), '{}')).toEqual(unauthorized);
    expect((await send(`${url}/context`, 'POST', auth(tokens.sdk), '{}')).status).toBe(200);
    const state = `${url}/session/s1/state`;
    expect(await send(state, 'GET', { authorization: `Bearer ${tokens.adapter}` })).toEqual(unauthorized);
    expect(await send(state, 'GET', { authorization: `Bearer ${tokens.sdk}` })).toEqual({
      status: 200,
      body: { got: { route: 'session-state', params: { session_id: 's1' } } },
    });
  });

  it('parses JSON only after authentication', async () => {
    const url = await listen(echo);
    expect((await send(`${url}/audit`, 'POST', { 'content-type': 'application/json' }, '{nope')).status).toBe(
      401,
    );
    expect(await send(`${url}/audit`, 'POST', auth(tokens.adapter), '{nope')).toEqual({
      status: 400,
      body: { error: 'Invalid JSON', code: 'invalid_json' },
    });
    expect((await send(`${url}/audit`, 'POST', auth(tokens.adapter))).status).toBe(400);
  });

  it('refuses a body nested deeper than its cap with 400 json_too_deep, after authentication', async () => {
    const listener = await startAdapterListener({
      host: '127.0.0.1',
      port: 0,
      tokens,
      handler: echo,
      maxJsonDepth: 3,
    });
    listeners.push(listener);
    const three = '{"a":[{"b":1}],"s":"[[[[{{{{"}';
    expect(await send(`${listener.url}/audit`, 'POST', auth(tokens.adapter), three)).toMatchObject({
      status: 200,
    });
    const four = '{"a":[{"b":[1]}]}';
    expect(
      await send(`${listener.url}/audit`, 'POST', { 'content-type': 'application/json' }, four),
    ).toMatchObject({
      status: 401,
    });
    expect(await send(`${listener.url}/audit`, 'POST', auth(tokens.adapter), four)).toEqual({
      status: 400,
      body: { error: 'json_too_deep', max_depth: 3 },
    });
  });

  it('hands the route, body and path parameters to the governance service and returns its answer', async () => {
    const seen: AdapterRequest[] = [];
    const url = await listen(async (request) => {
      seen.push(request);
      return { status: 409, body: { error: 'already_resolved', status: 'approved' } };
    });
    const body = { resolution: 'approved', resolved_by: 'telegram:@oli' };
    const answer = await send(
      `${url}/approval/t-42/resolve`,
      'POST',
      auth(tokens.adapter),
      JSON.stringify(body),
    );
    expect(answer).toEqual({ status: 409, body: { error: 'already_resolved', status: 'approved' } });
    expect(seen).toEqual([{ route: 'approval-resolve', body, params: { id: 't-42' } }]);
  });

  it('answers 503 governance_unavailable while no service is wired', async () => {
    const url = await listen();
    for (const path of ['/evaluate', '/audit', '/install-scan', '/approval/x/resolve']) {
      expect(await send(`${url}${path}`, 'POST', auth(tokens.adapter), '{}')).toEqual({
        status: 503,
        body: { error: 'governance_unavailable' },
      });
    }
  });

  it('turns a fault into a bare 500 and reports it', async () => {
    const faults: unknown[] = [];
    const url = await listen(
      async () => {
        throw new Error('database password is hunter22');
      },
      (e) => faults.push(e),
    );
    const answer = await send(`${url}/evaluate`, 'POST', auth(tokens.adapter), '{}');
    expect(answer).toEqual({ status: 500, body: { error: 'Internal server error', code: 'internal_error' } });
    expect(JSON.stringify(answer)).not.toContain('hunter22');
    expect(faults).toHaveLength(1);
  });

  it('answers unknown paths with 404 after the Origin check and the token of their scope', async () => {
    const url = await listen();
    expect(await send(`${url}/nope`, 'GET', {})).toEqual({
      status: 401,
      body: { error: 'Unauthorized', code: 'unauthorized' },
    });
    expect(await send(`${url}/nope`, 'GET', { authorization: `Bearer ${tokens.sdk}` })).toEqual({
      status: 404,
      body: { error: 'not_found' },
    });
  });
});
