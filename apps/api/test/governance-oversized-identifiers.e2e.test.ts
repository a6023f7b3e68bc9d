/**
 * Issue 15, items 1 and 8, as they were found: on the real listener and PostgreSQL, an /evaluate whose
 * tool name was 1,024 astral characters (4,096 bytes) was allowed, its record could not be stored, and
 * the expiry sweep failed on it at every run until the backlog was full for good; a 3,900-character
 * `metadata.sender_id` answered 500. Every identifier of every route is now held to its byte ceiling
 * (400 `invalid_request`), so none of them can fault, and the trail and the sweep keep working.
 */
import { IDENTIFIER_MAX_BYTES as MAX } from '@helios/governance';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_TOKEN, startGovernanceApp, type GovernanceApp } from './support/governance-app.js';

const policy = (port: number) => `
version: '1'
sdk: { enabled: true, port: ${port}, evaluation_ttl: 1m }
policies:
  rules:
    - { name: rl, match: { tool: "rl_*" }, action: rate_limit, limits: { max_calls: 3, window: 1m, key: sender_id } }
    - { name: ask, match: { tool: "ask_*" }, action: require_approval }
    - { name: grounded, match: { tool: "send_*" }, action: allow, evidence: { requires: [recipient] } }
budgets:
  - { name: per-sender, limit: 10, currency: USD, window: 1h, key: sender_id, contributors: [ { match: { tool: "buy_*" }, field: cost } ] }
`;

/** `bytes / 4` astral characters, varied so that PostgreSQL cannot compress an index entry of them. */
function astral(bytes: number): string {
  let seed = 7;
  let text = '';
  for (let i = 0; i < Math.floor(bytes / 4); i += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    text += String.fromCodePoint(0x2_0000 + (seed % 0xa6d0));
  }
  return text + 'a'.repeat(bytes % 4);
}

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy);
});
afterAll(async () => {
  await app?.close();
});

describe('identifiers over their byte ceiling, on the real listener', () => {
  it('the original attack: a 4,096-byte tool name is refused, and the backlog keeps expiring', async () => {
    const attack = await app.post('/evaluate', { tool: { name: astral(4_096) } });
    expect(attack).toMatchObject({
      status: 400,
      body: { error: 'Validation error', code: 'invalid_request', details: [{ path: 'tool.name' }] },
    });
    const pending = await app.post('/evaluate', { tool: { name: 'chat' } });
    expect(pending.status).toBe(200);
    app.clock.advance(2 * 60_000);
    await expect
      .poll(
        async () =>
          (await app.post('/audit', { evaluation_id: pending.body.evaluation_id, status: 'success' })).body,
      )
      .toMatchObject({ error: 'evaluation_expired' });
    const [pendingLeft] = await app.query<{ count: string }>(`SELECT count(*) FROM "pending_evaluations"`);
    expect(Number(pendingLeft?.count)).toBe(0);
  });

  it('a 3,900-character sender id is 400, not 500, on the rate-limited and the budgeted tool', async () => {
    const sender = 's'.repeat(3_900);
    for (const call of [
      { tool: { name: 'rl_send' }, metadata: { sender_id: sender } },
      { tool: { name: 'buy_x' }, arguments: { cost: 1 }, metadata: { sender_id: sender } },
    ]) {
      expect(await app.post('/evaluate', call)).toMatchObject({
        status: 400,
        body: {
          details: [{ path: 'metadata.sender_id', message: 'expected at most 400 bytes (UTF-8), got 3900' }],
        },
      });
    }
    // At the ceiling the bucket key stores and the limit counts.
    const atCeiling = { tool: { name: 'rl_send' }, metadata: { sender_id: astral(MAX.senderId) } };
    const decisions = [];
    for (let i = 0; i < 4; i += 1) decisions.push((await app.post('/evaluate', atCeiling)).body.decision);
    expect(decisions).toEqual(['allow', 'allow', 'allow', 'rate_limited']);
  });

  it('no identifier of any route faults: one byte past its ceiling is 400, at it the call goes through', async () => {
    const faults: string[] = [];
    const send = async (label: string, path: string, body: unknown, token?: string) => {
      const reply = await app.post(path, body, token);
      if (reply.status >= 500) faults.push(`${label}: ${reply.status}`);
      return reply;
    };
    const cases: [string, string, (v: string) => unknown, number, string?][] = [
      ['tool.name', '/evaluate', (v) => ({ tool: { name: v } }), MAX.toolName],
      ['agent_id', '/evaluate', (v) => ({ agent_id: v, tool: { name: 't' } }), MAX.agentId],
      ['session_id', '/evaluate', (v) => ({ session_id: v, tool: { name: 'ask_x' } }), MAX.callerSessionId],
      ['metadata', '/evaluate', (v) => ({ tool: { name: 't' }, metadata: { [v]: 1 } }), MAX.metadataKey],
      ['package.name', '/install-scan', (v) => ({ package: { name: v } }), MAX.packageName],
      ['package.source', '/install-scan', (v) => ({ package: { name: 'p', source: v } }), MAX.packageSource],
      [
        'session_id',
        '/evidence',
        (v) => ({ session_id: v, tool_name: 'send_x', evidence_key: 'recipient', evidence_data: 1 }),
        MAX.sdkSessionId,
        SDK_TOKEN,
      ],
      ['key', '/context', (v) => ({ session_id: 's', key: v, value: 1 }), MAX.contextKey, SDK_TOKEN],
    ];
    for (const [path, route, body, max, token] of cases) {
      const over = await send(`${route} ${path} over`, route, body(astral(max + 1)), token);
      expect(over, `${route} ${path}`).toMatchObject({ status: 400, body: { details: [{ path }] } });
      const at = await send(`${route} ${path} at`, route, body(astral(max)), token);
      expect(at.status, `${route} ${path} at the ceiling`).toBeLessThan(300);
    }
    expect(faults).toEqual([]);
    // Everything accepted above was audited or is pending: the trail answers, nothing is stuck.
    const [records] = await app.query<{ count: string }>(`SELECT count(*) FROM "audit_records"`);
    expect(Number(records?.count)).toBeGreaterThan(0);
  });
});
