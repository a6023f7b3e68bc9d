/**
 * The governance adapter API as adapters see it: the real app with a policy file, its second listener on
 * a real port, and the engine behind it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { freePort } from '@helios/persistence/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/load-config.js';
import { startServer, type RunningServer } from '../src/server.js';
import { embeddedTarget, tempDir, type DatabaseTarget } from './support/databases.js';

const ADAPTER = 'adapter-token-for-tests-000000000001';
const SDK = 'sdk-token-for-tests-000000000000000001';

function policy(port: number): string {
  return `
version: '1'
sdk: { enabled: true, port: ${port} }
policies:
  default: allow
  rules:
    - { name: no-rm, match: { tool: shell, input: { command: { contains: 'rm -rf' } } }, action: deny }
    - { name: pay-needs-ok, match: { tool: pay }, action: require_approval }
    - { name: send-grounded, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }
`;
}

describe('the governance adapter API', () => {
  let target: DatabaseTarget;
  let server: RunningServer;
  let url: string;

  beforeAll(async () => {
    target = await embeddedTarget();
    const port = await freePort();
    const dir = await tempDir();
    const file = join(dir, 'helio.yaml');
    await writeFile(file, policy(port));
    const config = parseConfig('server:\n  port: 0\nlog:\n  level: error\n');
    server = await startServer(
      {
        ...config,
        database: { ...config.database, ...target.database },
        governance: {
          ...config.governance,
          policy: file,
          sweepIntervalMs: 100,
          limits: { maxToolInputBytes: 64, maxOrigins: 2 },
        },
      },
      { HELIO_ADAPTER_TOKEN: ADAPTER, HELIO_SDK_TOKEN: SDK },
    );
    url = server.governance?.listener?.url ?? '';
    expect(url).toBe(`http://127.0.0.1:${port}`);
  });

  afterAll(async () => {
    await server?.close();
    await target?.dispose();
  });

  const post = async (path: string, body: unknown, token = ADAPTER) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('answers /healthz and refuses the SDK token on governance routes', async () => {
    expect(await (await fetch(`${url}/healthz`)).json()).toEqual({ status: 'ok' });
    expect((await post('/evaluate', { tool: { name: 'ls' } }, SDK)).status).toBe(401);
  });

  it('allows, audits once, replays and refuses a conflicting payload', async () => {
    const evaluated = await post('/evaluate', {
      session_id: 's1',
      tool: { name: 'ls' },
      arguments: { path: '/' },
    });
    expect(evaluated).toMatchObject({ status: 200, body: { decision: 'allow', matched_rule: null } });
    const id = evaluated.body.evaluation_id as string;
    const audit = { evaluation_id: id, status: 'success', duration_ms: 12 };
    const first = await post('/audit', audit);
    expect(first).toMatchObject({ status: 201, body: { ok: true } });
    expect(await post('/audit', audit)).toMatchObject({
      status: 200,
      body: { ok: true, already_finalized: true, audit_record_id: first.body.audit_record_id },
    });
    expect(await post('/audit', { ...audit, duration_ms: 13 })).toMatchObject({
      status: 409,
      body: { error: 'evaluation_conflict' },
    });
    // The trail is in PostgreSQL (buffered writes land within the flush interval).
    const { dataSource } = server.database;
    await expect
      .poll(async () =>
        dataSource.query(`SELECT tool_name, record_kind FROM audit_records WHERE id = $1`, [
          first.body.audit_record_id,
        ]),
      )
      .toEqual([{ tool_name: 'ls', record_kind: 'tool_call' }]);
    expect(await post('/audit', { evaluation_id: 'never-issued', status: 'success' })).toMatchObject({
      status: 404,
      body: { error: 'evaluation_unknown' },
    });
  });

  it('denies by rule, terminally at /evaluate', async () => {
    const evaluated = await post('/evaluate', {
      tool: { name: 'shell' },
      arguments: { command: 'rm -rf /' },
    });
    expect(evaluated).toMatchObject({ status: 200, body: { decision: 'deny', matched_rule: 'no-rm' } });
    expect(
      await post('/audit', { evaluation_id: evaluated.body.evaluation_id, status: 'not_executed' }),
    ).toMatchObject({ status: 200, body: { finalized_by: 'evaluate' } });
  });

  it('holds /audit until a native approval is resolved', async () => {
    const evaluated = await post('/evaluate', {
      session_id: 's2',
      tool: { name: 'pay' },
      arguments: { amount: 5 },
    });
    expect(evaluated.body.decision).toBe('require_approval');
    const approval = evaluated.body.approval as { id: string; resolve_path: string };
    const audit = { evaluation_id: evaluated.body.evaluation_id, status: 'success' };
    expect(await post('/audit', audit)).toMatchObject({
      status: 409,
      body: { error: 'approval_unresolved' },
    });
    expect(await post(`/approval/${approval.id}/resolve`, { resolution: 'approved' })).toMatchObject({
      status: 400,
    });
    expect(
      await post(`/approval/${approval.id}/resolve`, {
        resolution: 'approved',
        resolved_by: 'telegram:@ops',
      }),
    ).toEqual({ status: 200, body: { ok: true } });
    expect(
      await post(`/approval/${approval.id}/resolve`, { resolution: 'denied', resolved_by: 'telegram:@ops' }),
    ).toMatchObject({ status: 409, body: { error: 'already_resolved' } });
    expect((await post('/audit', audit)).status).toBe(201);
    expect(await post('/approval/nope/resolve', { resolution: 'cancelled' })).toMatchObject({
      status: 404,
      body: { error: 'ticket_not_found' },
    });
  });

  it('grounds a call on evidence written through the SDK route', async () => {
    const call = { session_id: 's3', tool: { name: 'send' } };
    expect((await post('/evaluate', call)).body.decision).toBe('deny');
    const evidence = {
      session_id: 's3',
      tool_name: 'lookup',
      evidence_key: 'recipient',
      evidence_data: { to: 'x' },
    };
    expect((await post('/evidence', evidence)).status).toBe(401); // adapter token cannot write evidence
    expect(await post('/evidence', evidence, SDK)).toEqual({ status: 201, body: { ok: true } });
    expect((await post('/evaluate', call)).body.decision).toBe('allow');
  });

  it('stores context and reads a session state back through the SDK routes', async () => {
    const get = async (path: string, token = SDK) => {
      const res = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${token}` } });
      return { status: res.status, body: (await res.json()) as Record<string, unknown> };
    };
    const context = { session_id: 's4', key: 'ticket', value: { id: 'T-1' } };
    expect(await post('/context', context)).toEqual({
      status: 401,
      body: { error: 'Unauthorized', code: 'unauthorized' },
    });
    expect(await post('/context', context, SDK)).toEqual({ status: 201, body: { ok: true } });
    const invalid = await post('/context', { session_id: ' ', key: 'k' }, SDK);
    expect(invalid).toMatchObject({
      status: 400,
      body: { error: 'Validation error', code: 'invalid_request' },
    });
    expect((invalid.body.details as { path: string }[]).map((i) => i.path).sort()).toEqual([
      'session_id',
      'value',
    ]);
    await post(
      '/evidence',
      { session_id: 's4', tool_name: 'lookup', evidence_key: 'recipient', evidence_data: 1 },
      SDK,
    );
    const send = await post('/evaluate', { session_id: 's4', tool: { name: 'send' } });
    await post('/audit', { evaluation_id: send.body.evaluation_id, status: 'success' });

    expect((await get('/session/s4/state', ADAPTER)).status).toBe(401);
    const state = await get('/session/s4/state');
    expect(state).toMatchObject({
      status: 200,
      body: {
        session_id: 's4',
        evidence: { recipient: { evidence_key: 'recipient', data: 1, tool_name: 'lookup' } },
        context: { ticket: { id: 'T-1' } },
        completed_tools: [{ tool_name: 'send', succeeded: true }],
      },
    });
    const long = 'z'.repeat(300);
    expect(await get(`/session/${long}/state`)).toEqual({
      status: 200,
      body: { session_id: long, evidence: {}, context: {}, completed_tools: [] },
    });
    // Any id reads, as the reference's: nothing can be written under a whitespace-only one.
    expect(await get('/session/%20/state')).toEqual({
      status: 200,
      body: { session_id: ' ', evidence: {}, context: {}, completed_tools: [] },
    });
  });

  it('scans installs observationally when no install rules exist', async () => {
    expect(
      await post('/install-scan', { origin: 'openclaw', package: { name: 'left-pad', source: 'npm' } }),
    ).toMatchObject({
      status: 200,
      body: { decision: 'allow', reason: 'no install-time rules defined', matched_rule: null },
    });
  });

  it('refuses malformed bodies with every problem listed', async () => {
    const bad = await post('/evaluate', { tool: { name: '' }, session_id: 7 });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: 'Validation error', code: 'invalid_request' });
    expect((bad.body.details as { path: string }[]).map((i) => i.path).sort()).toEqual([
      'session_id',
      'tool.name',
    ]);
    expect(await post('/audit', { evaluation_id: 'x', status: 'maybe' })).toMatchObject({
      status: 400,
      body: { error: 'Validation error', code: 'invalid_request' },
    });
    expect(await post('/evaluate', { tool: { name: 't' }, metadata: { agent_id: 'a' } })).toMatchObject({
      status: 400,
      body: { error: 'reserved_metadata_key' },
    });
  });

  it('enforces the configured caps at n and n + 1', async () => {
    // {"a":"…"} is 8 bytes plus the string: 56 characters fill the 64-byte cap exactly.
    expect((await post('/evaluate', { tool: { name: 'ls' }, arguments: { a: 'x'.repeat(56) } })).status).toBe(
      200,
    );
    expect(await post('/evaluate', { tool: { name: 'ls' }, arguments: { a: 'x'.repeat(57) } })).toEqual({
      status: 413,
      body: { error: 'tool_input_too_large' },
    });
    // The default origin is the first; a second is admitted, a third refused.
    expect((await post('/evaluate', { origin: 'second', tool: { name: 'ls' } })).status).toBe(200);
    expect(await post('/evaluate', { origin: 'third', tool: { name: 'ls' } })).toEqual({
      status: 400,
      body: { error: 'origin_limit_exceeded' },
    });
  });

  it('stops answering when the API shuts down', async () => {
    await server.close();
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
  });
});
