/**
 * Request-level conformance of the real adapter listener and every bounded-growth cap at n and n + 1:
 * the seed's defaults where a test can reach them cheaply (origins, tool_input, metadata), small
 * configured caps (governance.limits) for the rest. Each test leaves nothing pending, so the backlog
 * caps see only their own evaluations.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_TOKEN,
  SDK_TOKEN,
  startGovernanceApp,
  type GovernanceApp,
  type Reply,
} from './support/governance-app.js';

const KIB = 1024;
const MIB = 1024 * KIB;

const policy = (port: number) => `
version: '1'
sdk: { enabled: true, port: ${port} }
policies:
  on_tool_drift: log
  rules:
    - { name: per-sender, match: { tool: chat }, action: rate_limit, limits: { max_calls: 5, window: 1h, key: sender_id } }
`;

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy, {
    maxToolsPerOrigin: 3,
    maxPendingEvaluations: 4,
    // Room for two of the largest evaluations the 64 KiB tool_input cap lets through.
    maxPendingBytes: 128 * KIB,
    maxSenderKeys: 2,
    maxSessions: 2,
  });
});
afterAll(async () => {
  await app?.close();
});

const evaluate = (body: Record<string, unknown>) => app.post('/evaluate', body);
/** Finalizes a pending evaluation as not executed, freeing its backlog slot and holds. */
const settle = async (evaluated: Reply) =>
  expect(
    (await app.post('/audit', { evaluation_id: evaluated.body.evaluation_id, status: 'not_executed' }))
      .status,
  ).toBe(201);

describe('every route of the real listener, in the seed middleware order', () => {
  const posts: readonly (readonly [string, string])[] = [
    ['/evaluate', ADAPTER_TOKEN],
    ['/audit', ADAPTER_TOKEN],
    ['/install-scan', ADAPTER_TOKEN],
    ['/approval/t-1/resolve', ADAPTER_TOKEN],
    ['/evidence', SDK_TOKEN],
    ['/context', SDK_TOKEN],
  ];
  const wrongScope = (token: string) => (token === ADAPTER_TOKEN ? SDK_TOKEN : ADAPTER_TOKEN);
  const json = { 'content-type': 'application/json' };
  const bearer = (token: string) => ({ ...json, authorization: `Bearer ${token}` });
  const oversized = 'x'.repeat(MIB + 1);

  it('Origin (even "null") and OPTIONS → 403, then token → 401, then oversize → 413, then JSON and schema → 400', async () => {
    const forbidden = {
      status: 403,
      body: { error: 'Cross-origin requests are not allowed', code: 'cross_origin_request' },
    };
    const preflight = {
      status: 403,
      body: { error: 'CORS preflight requests are not allowed', code: 'cors_preflight' },
    };
    for (const [path, token] of posts) {
      expect(await app.raw('POST', path, { ...json, origin: 'null' }, oversized), path).toEqual(forbidden);
      expect(
        await app.raw('OPTIONS', path, { ...bearer(token), origin: 'https://evil.example' }),
        path,
      ).toEqual(forbidden);
      expect(await app.raw('OPTIONS', path, bearer(token)), path).toEqual(preflight);
      // The token is checked on the headers, before any body byte: unauthenticated oversize is 401.
      expect(await app.raw('POST', path, json, oversized), path).toEqual({
        status: 401,
        body: { error: 'Unauthorized', code: 'unauthorized' },
      });
      expect(await app.raw('POST', path, bearer(wrongScope(token)), '{}'), path).toEqual({
        status: 401,
        body: { error: 'Unauthorized', code: 'unauthorized' },
      });
      expect(await app.raw('POST', path, bearer(token), oversized), path).toEqual({
        status: 413,
        body: { error: 'request_body_too_large' },
      });
      expect(await app.raw('POST', path, bearer(token), '{"tool":'), path).toEqual({
        status: 400,
        body: { error: 'Invalid JSON', code: 'invalid_json' },
      });
      // ~100,000 levels within 1 MiB: refused at the door, not a stack overflow (500) in the engine.
      expect(await app.raw('POST', path, bearer(token), nested(100_000)), path).toEqual({
        status: 400,
        body: { error: 'json_too_deep', max_depth: 256 },
      });
      const invalid = await app.raw('POST', path, bearer(token), '[]');
      expect(invalid, path).toMatchObject({
        status: 400,
        body: { error: 'Validation error', code: 'invalid_request' },
      });
      expect(invalid.body.details.length, path).toBeGreaterThan(0);
    }
    const state = '/session/s/state';
    expect(await app.raw('GET', state, { authorization: `Bearer ${SDK_TOKEN}`, origin: 'null' })).toEqual(
      forbidden,
    );
    expect(await app.raw('GET', state, { authorization: `Bearer ${ADAPTER_TOKEN}` })).toEqual({
      status: 401,
      body: { error: 'Unauthorized', code: 'unauthorized' },
    });
    expect(await app.raw('GET', '/healthz', { origin: 'null' })).toEqual(forbidden);
    expect(await app.raw('GET', '/healthz', {})).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

/** JSON text nesting `levels` objects, the outermost included. */
const nested = (levels: number, leaf = '1'): string => '{"a":'.repeat(levels) + leaf + '}'.repeat(levels);

describe('bounded growth at n and n + 1', () => {
  it('JSON nesting at the default of 256 levels, the body itself being the first', async () => {
    // The body is level 1 and `arguments` level 2: arguments nesting 255 objects reach 256.
    const body = (levels: number) => `{"tool":{"name":"io"},"arguments":${nested(levels - 1)}}`;
    const headers = { 'content-type': 'application/json', authorization: `Bearer ${ADAPTER_TOKEN}` };
    const fits = await app.raw('POST', '/evaluate', headers, body(256));
    expect(fits).toMatchObject({ status: 200, body: { decision: 'allow' } });
    await settle(fits);
    expect(await app.raw('POST', '/evaluate', headers, body(257))).toEqual({
      status: 400,
      body: { error: 'json_too_deep', max_depth: 256 },
    });
  });

  it('tool_input at the seed default of 64 KiB and metadata at 4 KiB (serialized)', async () => {
    // {"a":"…"} is 8 bytes plus the string.
    const args = (bytes: number) => ({ a: 'x'.repeat(bytes - 8) });
    const fits = await evaluate({ tool: { name: 'io' }, arguments: args(64 * KIB) });
    expect(fits.status).toBe(200);
    await settle(fits);
    expect(await evaluate({ tool: { name: 'io' }, arguments: args(64 * KIB + 1) })).toEqual({
      status: 413,
      body: { error: 'tool_input_too_large' },
    });
    const meta = await evaluate({ tool: { name: 'io' }, metadata: args(4 * KIB) });
    expect(meta.status).toBe(200);
    await settle(meta);
    expect(await evaluate({ tool: { name: 'io' }, metadata: args(4 * KIB + 1) })).toEqual({
      status: 413,
      body: { error: 'metadata_too_large' },
    });
    expect(
      (await app.post('/install-scan', { package: { name: 'p' }, metadata: args(4 * KIB) })).status,
    ).toBe(200);
    expect(await app.post('/install-scan', { package: { name: 'p' }, metadata: args(4 * KIB + 1) })).toEqual({
      status: 413,
      body: { error: 'metadata_too_large' },
    });
  });

  it('baselined tools per origin (first-seen only; known tools keep updating, definition-less calls pass)', async () => {
    const withDefinition = (name: string, description: string) =>
      evaluate({ tool: { name, description, input_schema: { type: 'object' } } });
    for (const name of ['t1', 't2', 't3']) await settle(await withDefinition(name, 'v1'));
    expect(await withDefinition('t4', 'v1')).toEqual({ status: 400, body: { error: 'tool_baseline_limit' } });
    const updated = await withDefinition('t1', 'v2');
    expect(updated.body).toMatchObject({
      decision: 'allow',
      tool_drift: { changes: [{ aspect: 'description' }] },
    });
    await settle(updated);
    await settle(await evaluate({ tool: { name: 't4' } }));
  });

  it('pending evaluations by count', async () => {
    const held = [];
    for (let i = 0; i < 4; i += 1) {
      const evaluated = await evaluate({ tool: { name: 'hold' } });
      expect(evaluated.status).toBe(200);
      held.push(evaluated);
    }
    expect(await evaluate({ tool: { name: 'hold' } })).toEqual({
      status: 503,
      body: { error: 'evaluation_backlog_full' },
    });
    await settle(held.pop() as Reply);
    held.push(await evaluate({ tool: { name: 'hold' } }));
    for (const evaluated of held) await settle(evaluated);
  });

  it('pending evaluations by bytes', async () => {
    // The footprint the backlog counts: arguments + metadata ({}) + the identity fields + no charges ([], []).
    const identity = Buffer.byteLength(
      JSON.stringify({ toolName: 'big', agentId: null, session: null, origin: 'sideband' }),
    );
    const call = (bytes: number) =>
      evaluate({ tool: { name: 'big' }, arguments: { a: 'x'.repeat(bytes - 8 - 2 - identity - 4) } });
    const first = await call(64 * KIB);
    const second = await call(64 * KIB);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(await call(64 * KIB)).toEqual({ status: 503, body: { error: 'evaluation_backlog_full' } });
    await settle(first);
    expect(await call(64 * KIB + 1)).toEqual({ status: 503, body: { error: 'evaluation_backlog_full' } });
    const refill = await call(64 * KIB);
    expect(refill.status).toBe(200);
    await settle(second);
    await settle(refill);
  });

  it('distinct sender keys, each released when its bucket empties', async () => {
    const chat = (sender: string) => evaluate({ tool: { name: 'chat' }, metadata: { sender_id: sender } });
    const a = await chat('A');
    const b = await chat('B');
    expect([a.body.decision, b.body.decision]).toEqual(['allow', 'allow']);
    expect(await chat('C')).toEqual({ status: 503, body: { error: 'limit_capacity_exhausted' } });
    const again = await chat('A');
    expect(again.body.decision).toBe('allow');
    await settle(a);
    await settle(again);
    const c = await chat('C');
    expect(c.body.decision).toBe('allow');
    await settle(b);
    await settle(c);
  });

  it('sessions in the evidence/context store', async () => {
    const context = (session: string) =>
      app.post('/context', { session_id: session, key: 'k', value: 1 }, SDK_TOKEN);
    expect((await context('s1')).status).toBe(201);
    expect((await context('s2')).status).toBe(201);
    expect(await context('s3')).toEqual({ status: 503, body: { error: 'session_capacity_exhausted' } });
    expect((await context('s1')).status).toBe(201);
    expect((await app.get('/session/s3/state')).body).toEqual({
      session_id: 's3',
      evidence: {},
      context: {},
      completed_tools: [],
    });
  });

  // Last: it fills the origin registry.
  it('distinct origins at the seed default of 32', async () => {
    // Every earlier call used the default origin ("sideband"): it is the first of the 32.
    for (let i = 1; i < 32; i += 1)
      await settle(await evaluate({ origin: `origin-${i}`, tool: { name: 'o' } }));
    expect(await evaluate({ origin: 'origin-32', tool: { name: 'o' } })).toEqual({
      status: 400,
      body: { error: 'origin_limit_exceeded' },
    });
    await settle(await evaluate({ origin: 'origin-1', tool: { name: 'o' } }));
  });
});
