/**
 * Input PostgreSQL cannot store, sent to every route of the real listener on a real database: U+0000
 * and unpaired surrogates in every string a caller controls, and amounts far beyond a bigint of
 * micro-units. None may fault (500); strings are stored with U+FFFD in their place, amounts are counted
 * exactly (numeric columns). And values
 * of every JSON type where a field of another is expected, everywhere the schemas leave the type open.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADAPTER_TOKEN,
  SDK_TOKEN,
  startGovernanceApp,
  type GovernanceApp,
  type Reply,
} from './support/governance-app.js';

const policy = (port: number) => `
version: '1'
sdk: { enabled: true, port: ${port} }
policies:
  on_tool_drift: log
  rules:
    - { name: ask, match: { tool: "ask_*" }, action: require_approval }
    - { name: pay, match: { tool: "pay_*" }, action: spend_limit, limits: { max_spend: { field: amount, limit: 100, currency: USD, window: 1h } } }
    - { name: no, match: { tool: "no_*" }, action: deny }
    - { name: rl, match: { tool: "rl_*" }, action: rate_limit, limits: { max_calls: 3, window: 1m, key: sender_id } }
    - { name: big-pay, match: { tool: "bigpay_*", input: { amount: { gt: 5 } } }, action: spend_limit, limits: { max_spend: { field: amount, limit: 100, currency: USD, window: 1h, key: session } } }
    - { name: grounded, match: { tool: "send_*" }, action: allow, evidence: { requires: [recipient] } }
    - { name: channel, match: { tool: "md_*", metadata: { channel_id: { eq: "x" } } }, action: deny }
  install:
    rules:
      - { name: no-evil, match: { name: "evil*" }, action: deny_install }
budgets:
  - { name: per-session, limit: 10, currency: USD, window: session, key: session, on_exceed: require_approval, contributors: [ { match: { tool: "cart_*" }, field: a.b } ] }
  - { name: per-sender, limit: 10, currency: USD, window: 1h, key: sender_id, on_exceed: require_approval, contributors: [ { match: { tool: "buy_*" }, field: cost } ] }
`;

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy);
});
afterAll(async () => {
  await app?.close();
});

/** Collects every 5xx answer, labelled, so one run lists them all. */
function faultCollector(): { faults: string[]; check: (label: string, reply: Reply) => void } {
  const faults: string[] = [];
  const check = (label: string, reply: Reply): void => {
    if (reply.status >= 500) faults.push(`${label}: ${reply.status} ${JSON.stringify(reply.body)}`);
  };
  return { faults, check };
}

/** U+0000 alone and inside text, unpaired high and low surrogates. */
const UNSTORABLE = ['\u0000', 'a\u0000b', '\uD800', 'x\uDC00'];

describe('input PostgreSQL cannot store', () => {
  it('never faults on U+0000 or unpaired surrogates in any string a caller sends', async () => {
    const { faults, check } = faultCollector();
    for (const text of UNSTORABLE) {
      const label = (what: string) => `${what} ${JSON.stringify(text)}`;
      const post = async (what: string, path: string, body: Record<string, unknown>, token?: string) => {
        const reply = await app.post(path, body, token);
        check(label(what), reply);
        return reply;
      };
      await post('arguments', '/evaluate', { tool: { name: 'ok' }, arguments: { a: text, [text]: 1 } });
      await post('tool name', '/evaluate', { tool: { name: `t${text}` } });
      await post('denied tool', '/evaluate', { tool: { name: `no_${text}` }, arguments: { a: text } });
      await post('origin', '/evaluate', { origin: `o${text}`, tool: { name: 'ok' } });
      await post('session', '/evaluate', { session_id: `s${text}`, tool: { name: 'ok' } });
      await post('agent', '/evaluate', { agent_id: `a${text}`, tool: { name: 'ok' } });
      await post('metadata', '/evaluate', { tool: { name: 'ok' }, metadata: { sender_id: text, x: text } });
      await post('sender key', '/evaluate', {
        tool: { name: 'buy_x' },
        arguments: { cost: 1 },
        metadata: { sender_id: `u${text}` },
      });
      await post('definition', '/evaluate', {
        tool: { name: 'defined', description: text, annotations: { [text]: text } },
      });
      const failed = await post('evaluate', '/evaluate', { tool: { name: 'ok' }, session_id: 's1' });
      await post('audit error', '/audit', {
        evaluation_id: failed.body.evaluation_id,
        status: 'error',
        error: text,
      });
      const grounded = await post('evaluate', '/evaluate', { tool: { name: 'ok' }, session_id: 's1' });
      await post('audit evidence', '/audit', {
        evaluation_id: grounded.body.evaluation_id,
        status: 'success',
        evidence: [{ evidence_key: `k${text}`, evidence_data: { v: text } }],
      });
      await post('audit id', '/audit', { evaluation_id: `x${text}`, status: 'success' });
      const asked = await post('ask', '/evaluate', { tool: { name: 'ask_x' } });
      const ticket = (asked.body.approval as { id: string }).id;
      await post('resolved_by', `/approval/${ticket}/resolve`, { resolution: 'approved', resolved_by: text });
      await post('install', '/install-scan', { package: { name: `p${text}`, version: text, source: text } });
      await post(
        'evidence',
        '/evidence',
        { session_id: `s${text}`, evidence_key: 'k', evidence_data: text },
        SDK_TOKEN,
      );
      await post('context', '/context', { session_id: `s${text}`, key: `k${text}`, value: text }, SDK_TOKEN);
    }
    for (const path of ['/approval/%00/resolve', '/approval/a%00b/resolve']) {
      check(
        path,
        await app.raw(
          'POST',
          path,
          { 'content-type': 'application/json', authorization: `Bearer ${ADAPTER_TOKEN}` },
          '{"resolution":"denied","resolved_by":"x"}',
        ),
      );
    }
    check('session state', await app.get('/session/s%00/state'));
    expect(faults).toEqual([]);
  });

  it('decides on and stores the same value, U+FFFD in place of what PostgreSQL refuses', async () => {
    const evaluated = await app.post('/evaluate', {
      tool: { name: 'no_\u0000' },
      arguments: { path: 'a\u0000b', lone: '\uD800' },
    });
    expect(evaluated.body).toMatchObject({ decision: 'deny', matched_rule: 'no' });
    const [record] = await app.query<{ tool_name: string; tool_input: unknown }>(
      `SELECT tool_name, tool_input FROM audit_records WHERE tool_name LIKE 'no_%' AND tool_input ? 'lone'`,
    );
    expect(record).toEqual({ tool_name: 'no_\uFFFD', tool_input: { path: 'a\uFFFDb', lone: '\uFFFD' } });
  });

  it('counts amounts of any size exactly, at evaluate and at audit, without a fault', async () => {
    for (const [i, amount] of [1e13, 1e308, 1.2345678901234568e29].entries()) {
      // A bucket of its own per amount (rule limits are keyed by tool name).
      const tool = { name: `pay_huge${i}` };
      const small = await app.post('/evaluate', { tool, arguments: { amount: 1 } });
      expect(small.body.decision).toBe('allow');
      const audited = await app.post('/audit', {
        evaluation_id: small.body.evaluation_id,
        status: 'success',
        actual_amount: amount,
      });
      expect(audited.status, `audit ${amount}`).toBe(201);
      const pay = await app.post('/evaluate', { tool, arguments: { amount } });
      expect(pay.body, `pay ${amount}`).toMatchObject({
        decision: 'spend_limited',
        limits: { spend: { current_spend: amount, limit: 100 } },
      });
      expect(pay.body.limits.spend).not.toHaveProperty('reason');
      // Over a break-glass budget, a countable amount asks for approval instead of failing closed.
      const buy = await app.post('/evaluate', {
        tool: { name: 'buy_x' },
        arguments: { cost: amount },
        metadata: { sender_id: `big${i}` },
      });
      expect(buy.body, `buy ${amount}`).toMatchObject({
        decision: 'require_approval',
        limits: { budgets: [{ name: 'per-sender', attempted_amount: amount, allowed: false }] },
      });
      expect(buy.body.limits.budgets[0]).not.toHaveProperty('reason');
    }
  });

  it('never faults on values of every JSON type where another is expected', async () => {
    const odd: unknown[] = [null, true, 0, -1, 1e308, 5e-324, 1.5, '', 'x', [], {}, [1, { a: 2 }]];
    const { faults, check } = faultCollector();
    for (const value of odd) {
      const label = (what: string) => `${what} ${JSON.stringify(value)}`;
      for (const name of ['ok', 'ask_x', 'rl_x', 'bigpay_x', 'send_x', 'md_x', 'cart_x']) {
        const tool = { name };
        const session = { session_id: 'odd' };
        const args = { amount: value, a: { b: value }, recipient: value };
        const metadata = { sender_id: value, channel_id: value };
        check(
          label(`${name} values`),
          await app.post('/evaluate', { ...session, tool, arguments: args, metadata }),
        );
        check(
          label(`${name} arguments.a`),
          await app.post('/evaluate', { ...session, tool, arguments: { a: value } }),
        );
        const definition = { name, annotations: { destructiveHint: value }, input_schema: value, title: 'x' };
        check(label(`${name} definition`), await app.post('/evaluate', { tool: definition }));
      }
      const evaluated = await app.post('/evaluate', {
        session_id: 'odd2',
        tool: { name: 'cart_x' },
        arguments: { a: { b: 1 } },
      });
      const id = evaluated.body.evaluation_id;
      check(
        label('audit actual_amount'),
        await app.post('/audit', { evaluation_id: id, status: 'success', actual_amount: value }),
      );
      check(
        label('audit duration_ms'),
        await app.post('/audit', { evaluation_id: id, status: 'success', duration_ms: value }),
      );
      const evidence = [{ evidence_key: 'recipient', evidence_data: value, ttl_seconds: value }];
      check(
        label('audit evidence'),
        await app.post('/audit', { evaluation_id: id, status: 'success', evidence }),
      );
      const sdk = { session_id: 'odd', evidence_key: 'recipient', evidence_data: value, ttl_seconds: value };
      check(label('evidence'), await app.post('/evidence', sdk, SDK_TOKEN));
      check(
        label('context'),
        await app.post('/context', { session_id: 'odd', key: value, value }, SDK_TOKEN),
      );
      check(
        label('install'),
        await app.post('/install-scan', { package: { name: 'p', version: value }, metadata: { k: value } }),
      );
      const asked = await app.post('/evaluate', { tool: { name: 'ask_y' } });
      const ticket = (asked.body.approval as { id: string }).id;
      check(
        label('resolve'),
        await app.post(`/approval/${ticket}/resolve`, {
          resolution: 'denied',
          resolved_by: value,
          reason: value,
        }),
      );
    }
    const longLived = { session_id: 'odd', evidence_key: 'recipient', evidence_data: 1, ttl_seconds: 1e300 };
    check('evidence ttl_seconds 1e300', await app.post('/evidence', longLived, SDK_TOKEN));
    check('session state', await app.get('/session/odd/state'));
    expect(faults).toEqual([]);
  }, 60_000);
});
