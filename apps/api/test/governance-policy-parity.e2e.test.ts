/**
 * Zero durations over HTTP against the real listener and PostgreSQL, each with the reference gateway's
 * meaning: a zero rate window is no limit, a zero spend or budget window judges each call alone, a zero
 * approval timeout times the ticket out at once, a zero evaluation TTL expires every call before its
 * /audit, and a zero audit retention empties the trail at the next retention sweep (here, a restart).
 * Two boots on one database: the second policy's retention sweep meets the first boot's records.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '@helios/persistence/testing';
import { parseConfig } from '../src/config/load-config.js';
import { startServer, type RunningServer } from '../src/server.js';
import {
  embeddedTarget,
  externalTarget,
  externalUrl,
  tempDir,
  type DatabaseTarget,
} from './support/databases.js';
import { ADAPTER_TOKEN, ManualClock, SDK_TOKEN, type Reply } from './support/governance-app.js';

const LIMITS = (port: number): string => `
version: '1'
sdk: { enabled: true, port: ${port} }
approval: { timeout: 0s }
audit: { retention: 0d }
policies:
  rules:
    - { name: ping, match: { tool: ping }, action: rate_limit, limits: { max_calls: 1, window: 0s } }
    - { name: pay, match: { tool: pay }, action: spend_limit, limits: { max_spend: { field: amount, limit: 10, currency: EUR, window: 0s } } }
    - { name: ask, match: { tool: ask }, action: require_approval }
    - { name: ask-own, match: { tool: ask_own }, action: require_approval, approval: { channel: dashboard, timeout: 0s } }
budgets:
  - { name: per-call, limit: 10, currency: EUR, window: 0s, contributors: [ { match: { tool: buy }, field: amount } ] }
  - name: glass
    limit: 1
    currency: EUR
    window: 1h
    on_exceed: require_approval
    approval: { channel: dashboard, timeout: 0s }
    contributors: [ { match: { tool: splurge }, field: amount } ]
`;

const EXPIRING = (port: number): string => `
version: '1'
sdk: { enabled: true, port: ${port}, evaluation_ttl: 0s }
audit: { retention: 0d }
policies:
  rules:
    - { name: once, match: { tool: once }, action: rate_limit, limits: { max_calls: 1, window: 1h } }
`;

interface Booted {
  readonly server: RunningServer;
  post(path: string, body: unknown): Promise<Reply>;
  query<T>(sql: string, params?: unknown[]): Promise<T[]>;
}

/** The API with `policy` on `target`, which outlives it (startGovernanceApp disposes its own). */
async function boot(target: DatabaseTarget, policy: (port: number) => string): Promise<Booted> {
  const port = await freePort();
  const file = join(await tempDir(), 'helio.yaml');
  await writeFile(file, policy(port));
  const config = parseConfig('server:\n  port: 0\nlog:\n  level: error\n');
  // A long sweep interval: a zero-TTL evaluation is then expired by its own /audit, deterministically.
  const server = await startServer(
    {
      ...config,
      database: { ...config.database, ...target.database },
      governance: { ...config.governance, policy: file, sweepIntervalMs: 3_600_000 },
    },
    { HELIO_ADAPTER_TOKEN: ADAPTER_TOKEN, HELIO_SDK_TOKEN: SDK_TOKEN },
    { governance: { clock: new ManualClock() } },
  );
  const url = server.governance?.listener?.url ?? '';
  return {
    server,
    async post(path, body) {
      const res = await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${ADAPTER_TOKEN}` },
        body: JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Reply['body'] };
    },
    query: (sql, params = []) => server.database.dataSource.query(sql, params),
  };
}

let target: DatabaseTarget;
let app: Booted;
beforeAll(async () => {
  target = externalUrl ? await externalTarget(externalUrl) : await embeddedTarget();
  app = await boot(target, LIMITS);
});
afterAll(async () => {
  await app?.server.close();
  await target?.dispose();
});

const evaluate = (tool: string, args: Record<string, unknown> = {}) =>
  app.post('/evaluate', { tool: { name: tool }, arguments: args });

/** Evaluates; when allowed, audits the call as run (charged). Returns the decision. */
async function ran(tool: string, args: Record<string, unknown> = {}): Promise<string> {
  const decided = await evaluate(tool, args);
  if (decided.body.decision === 'allow') {
    const audited = await app.post('/audit', {
      evaluation_id: decided.body.evaluation_id,
      status: 'success',
    });
    expect(audited.status).toBe(201);
  }
  return decided.body.decision as string;
}

describe('zero windows', () => {
  it('rate window 0s: never rate limited, and no limits block', async () => {
    for (let i = 0; i < 3; i += 1) {
      const decided = await evaluate('ping');
      expect(decided).toMatchObject({ status: 200, body: { decision: 'allow', matched_rule: 'ping' } });
      expect(decided.body.limits).toBeUndefined();
    }
  });

  it('spend and budget window 0s: each call is judged on its own amount', async () => {
    for (let i = 0; i < 3; i += 1) {
      expect(await ran('pay', { amount: 10 })).toBe('allow');
      expect(await ran('buy', { amount: 10 })).toBe('allow');
    }
    const pay = await evaluate('pay', { amount: 10.5 });
    expect(pay.body).toMatchObject({
      decision: 'spend_limited',
      limits: { spend: { current_spend: 0, limit: 10, window_ms: 0 } },
    });
    const buy = await evaluate('buy', { amount: 10.5 });
    expect(buy.body).toMatchObject({
      decision: 'budget_exceeded',
      limits: { budgets: [{ name: 'per-call', spent: 0, window: '0s' }] },
    });
  });
});

describe('approval timeout 0s', () => {
  it.each([
    ['approval.timeout', 'ask', {}],
    ["the rule's own approval.timeout", 'ask_own', {}],
    ["a break-glass budget's approval.timeout", 'splurge', { amount: 5 }],
  ])('%s: the ticket has timed out before anyone can resolve it', async (_, tool, args) => {
    const decided = await evaluate(tool, args);
    expect(decided.body).toMatchObject({ decision: 'require_approval', approval: { timeout_ms: 0 } });
    const resolved = await app.post(decided.body.approval.resolve_path as string, {
      resolution: 'approved',
      resolved_by: 'ops',
    });
    expect(resolved).toEqual({ status: 409, body: { error: 'already_resolved', status: 'timeout' } });
    const audited = await app.post('/audit', {
      evaluation_id: decided.body.evaluation_id,
      status: 'success',
    });
    expect(audited.status).toBe(201);
    await expect
      .poll(async () =>
        app.query<{ approval_status: string; block_reason: string }>(
          `SELECT approval_status, block_reason FROM audit_records WHERE id = $1`,
          [audited.body.audit_record_id],
        ),
      )
      .toEqual([{ approval_status: 'timeout', block_reason: 'approval_timeout' }]);
  });
});

describe('evaluation TTL 0s and audit retention 0d, after a restart on the same database', () => {
  it('the retention sweep at start deletes every earlier record; every evaluation expires before /audit', async () => {
    expect(await ran('buy', { amount: 1 })).toBe('allow');
    await expect
      .poll(async () => (await app.query(`SELECT id FROM audit_records`)).length)
      .toBeGreaterThan(0);
    expect((await app.query(`SELECT id FROM budget_events`)).length).toBeGreaterThan(0);
    await app.server.close();
    app = await boot(target, EXPIRING);
    expect(await app.query(`SELECT id FROM audit_records`)).toEqual([]);
    expect(await app.query(`SELECT id FROM budget_events`)).toEqual([]);

    for (let i = 0; i < 3; i += 1) {
      const decided = await evaluate('once');
      expect(decided.body).toMatchObject({ decision: 'allow', limits: { rate: { limit: 1 } } });
      const audited = await app.post('/audit', {
        evaluation_id: decided.body.evaluation_id,
        status: 'success',
      });
      expect(audited).toEqual({ status: 404, body: { error: 'evaluation_expired' } });
    }
    await expect
      .poll(async () =>
        app.query<{ record_kind: string; block_reason: string | null }>(
          `SELECT record_kind, block_reason FROM audit_records WHERE tool_name = 'once'`,
        ),
      )
      .toEqual(Array.from({ length: 3 }, () => ({ record_kind: 'evaluation_expired', block_reason: null })));
  });
});
