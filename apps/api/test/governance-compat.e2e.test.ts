/**
 * Drop-in compatibility with the reference gateway's clients, over HTTP against the real listener and
 * PostgreSQL: the session state its Python SDK parses, /audit never losing a call to an optional field,
 * the reference's field limits and error bodies, unknown paths answered only after authentication, and
 * /audit replays compared by meaning. Money of any size: governance-money.e2e.test.ts; texts and drift
 * detail: governance-texts.e2e.test.ts; policies: governance-policy-parity.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_TOKEN,
  SDK_TOKEN,
  startGovernanceApp,
  type GovernanceApp,
} from './support/governance-app.js';

const policy = (port: number) => `
version: '1'
sdk: { enabled: true, port: ${port} }
policies:
  default: allow
  rules:
    - { name: gate, match: { tool: gated }, action: require_approval, approval: { channel: dashboard, timeout: 1m } }
    - { name: send, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }
`;

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const POLL = { timeout: 5_000, interval: 50 };

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy);
});
afterAll(async () => {
  await app?.close();
});

async function evaluationId(body: Record<string, unknown>): Promise<string> {
  const reply = await app.post('/evaluate', body);
  expect(reply.status, JSON.stringify(reply.body)).toBe(200);
  return reply.body.evaluation_id as string;
}

async function recordOf(id: string): Promise<Record<string, unknown>> {
  let row: Record<string, unknown> | undefined;
  await expect
    .poll(async () => {
      [row] = await app.query(`SELECT * FROM "audit_records" WHERE "id" = $1`, [id]);
      return row !== undefined;
    }, POLL)
    .toBe(true);
  return row ?? {};
}

describe('GET /session/:session_id/state answers the shape the reference SDK parses', () => {
  it('evidence by key, context, and every tool that ran with whether it succeeded', async () => {
    const session = 'compat-state';
    const evidence = {
      session_id: session,
      tool_name: 'lookup',
      evidence_key: 'recipient',
      evidence_data: { to: 'a' },
    };
    expect(await app.post('/evidence', { ...evidence, ttl_seconds: 60 }, SDK_TOKEN)).toEqual({
      status: 201,
      body: { ok: true },
    });
    expect(
      (await app.post('/context', { session_id: session, key: 'user', value: 7 }, SDK_TOKEN)).status,
    ).toBe(201);
    for (const [tool, status] of [
      ['lookup', 'success'],
      ['fetch', 'error'],
      ['skipped', 'not_executed'],
    ] as const) {
      const id = await evaluationId({ session_id: session, tool: { name: tool } });
      expect((await app.post('/audit', { evaluation_id: id, status })).status).toBe(201);
    }
    const state = await app.get(`/session/${session}/state`);
    expect(state.status).toBe(200);
    expect(Object.keys(state.body).sort()).toEqual(['completed_tools', 'context', 'evidence', 'session_id']);
    expect(state.body).toMatchObject({ session_id: session, context: { user: 7 } });
    // An object keyed by evidence key, each entry exactly the five keys the SDK's dataclass takes.
    expect(Array.isArray(state.body.evidence)).toBe(false);
    const entry = state.body.evidence.recipient;
    expect(Object.keys(entry).sort()).toEqual([
      'data',
      'evidence_key',
      'expires_at',
      'timestamp',
      'tool_name',
    ]);
    expect(entry).toMatchObject({ evidence_key: 'recipient', data: { to: 'a' }, tool_name: 'lookup' });
    expect(entry.timestamp).toMatch(ISO);
    expect(Date.parse(entry.expires_at) - Date.parse(entry.timestamp)).toBe(60_000);
    // Failed calls are listed too, as not succeeded; a call that did not run is none.
    expect(state.body.completed_tools).toHaveLength(2);
    for (const tool of state.body.completed_tools) {
      expect(Object.keys(tool).sort()).toEqual(['succeeded', 'timestamp', 'tool_name']);
      expect(tool.timestamp).toMatch(ISO);
    }
    expect(
      state.body.completed_tools.map((t: { tool_name: string; succeeded: boolean }) => [
        t.tool_name,
        t.succeeded,
      ]),
    ).toEqual([
      ['lookup', true],
      ['fetch', false],
    ]);
  });

  it('an unknown session is empty state, not an error', async () => {
    expect(await app.get('/session/never-seen/state')).toEqual({
      status: 200,
      body: { session_id: 'never-seen', evidence: {}, context: {}, completed_tools: [] },
    });
  });
});

describe('/audit never loses a call to an optional field', () => {
  it('duration_ms -5 is accepted (201) and recorded as null with a note', async () => {
    const id = await evaluationId({ tool: { name: 'read' } });
    const reply = await app.post('/audit', { evaluation_id: id, status: 'success', duration_ms: -5 });
    expect(reply.status).toBe(201);
    const record = await recordOf(reply.body.audit_record_id as string);
    expect(record).toMatchObject({
      upstream_latency_ms: null,
      evidence_chain: { notes: ['duration_ms -5 is not a duration; recorded as null'] },
    });
  });

  it('a replay compares meaning: result omitted, then result null, is the same payload', async () => {
    const id = await evaluationId({ tool: { name: 'read' } });
    const first = await app.post('/audit', { evaluation_id: id, status: 'success' });
    expect(first.status).toBe(201);
    expect(await app.post('/audit', { evaluation_id: id, status: 'success', result: null })).toEqual({
      status: 200,
      body: { ok: true, audit_record_id: first.body.audit_record_id, already_finalized: true },
    });
    expect(await app.post('/audit', { evaluation_id: id, status: 'success', evidence: [] })).toMatchObject({
      status: 200,
    });
    expect(await app.post('/audit', { evaluation_id: id, status: 'error' })).toEqual({
      status: 409,
      body: { error: 'evaluation_conflict' },
    });
  });
});

describe("the reference's field limits: 400 before anything is decided or stored", () => {
  const cases: [string, string, (value: string) => Record<string, unknown>, string, string][] = [
    ['origin', '/evaluate', (v) => ({ origin: v, tool: { name: 'read' } }), 'a'.repeat(64), 'a'.repeat(65)],
    ['origin', '/evaluate', (v) => ({ origin: v, tool: { name: 'read' } }), 'my_adapter-2', 'My-Adapter'],
    ['tool.name', '/evaluate', (v) => ({ tool: { name: v } }), 'r'.repeat(256), 'r'.repeat(257)],
    ['tool.name', '/evaluate', (v) => ({ tool: { name: v } }), 'r', ''],
    [
      'agent_id',
      '/evaluate',
      (v) => ({ agent_id: v, tool: { name: 'read' } }),
      '代'.repeat(128),
      '代'.repeat(129),
    ],
    [
      'session_id',
      '/evaluate',
      (v) => ({ session_id: v, tool: { name: 'read' } }),
      '会'.repeat(256),
      '会'.repeat(257),
    ],
    [
      'adapter_version',
      '/evaluate',
      (v) => ({ adapter_version: v, tool: { name: 'read' } }),
      'v'.repeat(64),
      'v'.repeat(65),
    ],
    ['origin', '/install-scan', (v) => ({ origin: v, package: { name: 'p' } }), 'npm', 'NPM'],
    [
      'agent_id',
      '/install-scan',
      (v) => ({ agent_id: v, package: { name: 'p' } }),
      'a'.repeat(128),
      'a'.repeat(129),
    ],
    [
      'session_id',
      '/install-scan',
      (v) => ({ session_id: v, package: { name: 'p' } }),
      's'.repeat(256),
      's'.repeat(257),
    ],
    [
      'package.source',
      '/install-scan',
      (v) => ({ package: { name: 'p', source: v } }),
      'x'.repeat(64),
      'x'.repeat(65),
    ],
    [
      'package.source',
      '/install-scan',
      (v) => ({ package: { name: 'p', source: v } }),
      'npm',
      'x'.repeat(300),
    ],
    ['package.name', '/install-scan', (v) => ({ package: { name: v } }), 'p', ''],
  ];

  it.each(cases)(
    '%s on %s: at the limit passes, past it is a Validation error',
    async (path, route, body, ok, bad) => {
      const [before] = await app.query<{ count: string }>(`SELECT count(*) FROM "audit_records"`);
      const refused = await app.post(route, body(bad));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'Validation error', code: 'invalid_request' });
      expect(refused.body.details.map((d: { path: string }) => d.path)).toEqual([path]);
      expect(Object.keys(refused.body).sort()).toEqual(['code', 'details', 'error']);
      const [after] = await app.query<{ count: string }>(`SELECT count(*) FROM "audit_records"`);
      expect(after?.count).toBe(before?.count);
      const accepted = await app.post(route, body(ok));
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    },
  );

  it('an omitted origin is recorded as `sideband`', async () => {
    const id = await evaluationId({ tool: { name: 'read' } });
    const reply = await app.post('/audit', { evaluation_id: id, status: 'success' });
    expect(await recordOf(reply.body.audit_record_id as string)).toMatchObject({ origin: 'sideband' });
  });
});

describe("refusals carry the reference's text in `error` and our code beside it", () => {
  const json = { 'content-type': 'application/json' };
  const bearer = (token: string) => ({ ...json, authorization: `Bearer ${token}` });

  it('Validation error, Invalid JSON, Origin, preflight, Unauthorized', async () => {
    expect(await app.post('/evaluate', { tool: {} })).toEqual({
      status: 400,
      body: {
        error: 'Validation error',
        code: 'invalid_request',
        details: [{ path: 'tool.name', message: expect.any(String) }],
      },
    });
    expect(await app.raw('POST', '/evaluate', bearer(ADAPTER_TOKEN), '{"tool":')).toEqual({
      status: 400,
      body: { error: 'Invalid JSON', code: 'invalid_json' },
    });
    expect(await app.raw('POST', '/evaluate', { ...bearer(ADAPTER_TOKEN), origin: 'null' }, '{}')).toEqual({
      status: 403,
      body: { error: 'Cross-origin requests are not allowed', code: 'cross_origin_request' },
    });
    // Origin is checked before the method, as the reference does.
    expect(await app.raw('OPTIONS', '/evaluate', { origin: 'https://a.example' })).toEqual({
      status: 403,
      body: { error: 'Cross-origin requests are not allowed', code: 'cross_origin_request' },
    });
    expect(await app.raw('OPTIONS', '/evaluate', {})).toEqual({
      status: 403,
      body: { error: 'CORS preflight requests are not allowed', code: 'cors_preflight' },
    });
    expect(await app.raw('POST', '/evaluate', json, '{}')).toEqual({
      status: 401,
      body: { error: 'Unauthorized', code: 'unauthorized' },
    });
  });

  it('resolved_by is required for approved/denied', async () => {
    const reply = await app.post('/evaluate', { tool: { name: 'gated' } });
    const ticket = reply.body.approval.id as string;
    for (const resolution of ['approved', 'denied']) {
      expect(await app.post(`/approval/${ticket}/resolve`, { resolution })).toEqual({
        status: 400,
        body: { error: 'resolved_by is required for approved/denied', code: 'resolved_by_required' },
      });
    }
  });

  // An evidence key no rule requires: governance-conformance.e2e.test.ts (POST /evidence).

  it('an unknown path answers only after authentication, with the scope the reference gives it', async () => {
    const unauthorized = { status: 401, body: { error: 'Unauthorized', code: 'unauthorized' } };
    const notFound = { status: 404, body: { error: 'not_found' } };
    expect(await app.raw('GET', '/nope', {})).toEqual(unauthorized);
    expect(await app.raw('POST', '/nope', bearer(ADAPTER_TOKEN), '{}')).toEqual(unauthorized);
    expect(await app.raw('POST', '/nope', bearer(SDK_TOKEN), '{}')).toEqual(notFound);
    // Governance paths take the adapter token, whatever the method.
    expect(await app.raw('GET', '/evaluate', bearer(SDK_TOKEN))).toEqual(unauthorized);
    expect(await app.raw('GET', '/evaluate', bearer(ADAPTER_TOKEN))).toEqual(notFound);
    expect(await app.raw('GET', '/approval/x/resolve', bearer(ADAPTER_TOKEN))).toEqual(notFound);
    expect(await app.raw('GET', '/approval/x', bearer(SDK_TOKEN))).toEqual(unauthorized);
    expect(await app.raw('POST', '/healthz', {})).toEqual(notFound);
  });
});
