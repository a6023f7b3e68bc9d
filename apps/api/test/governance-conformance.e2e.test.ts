/**
 * Conformance of the adapter API to the seed, over HTTP against the real listener and PostgreSQL:
 * every decision with its wire shape and audit record, /audit idempotency and actual_amount rules,
 * evidence on audit, approval ordering and deadlines, TTL expiry (injected clock), and 50 parallel
 * evaluate/audit pairs on one rate bucket. Request-level errors and caps: governance-caps.e2e.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SDK_TOKEN, startGovernanceApp, type GovernanceApp, type Reply } from './support/governance-app.js';

const HOUR = 3_600_000;
const TTL = 10 * 60_000;
/** Allow records are buffered (flushed every ~100 ms); leave room for a loaded machine. */
const POLL = { timeout: 5_000, interval: 50 };

const policy = (port: number) => `
version: '1'
environment: conformance
sdk: { enabled: true, port: ${port}, evaluation_ttl: 10m }
policies:
  default: allow
  on_tool_drift: block
  rules:
    - name: no-rm
      match: { tool: rm }
      action: deny
      feedback: { message: Deleting is not allowed, suggestion: Archive instead }
    - { name: wire-needs-ok, match: { tool: wire }, action: require_approval, approval: { channel: dashboard, timeout: 30s } }
    - { name: ping-rate, match: { tool: ping }, action: rate_limit, limits: { max_calls: 2, window: 1h } }
    - { name: burst-rate, match: { tool: burst }, action: rate_limit, limits: { max_calls: 10, window: 1h } }
    - name: buy-spend
      match: { tool: buy }
      action: spend_limit
      limits: { max_spend: { field: amount, limit: 10, currency: USD, window: 1h } }
    - { name: sim, match: { tool: simulate }, action: dry_run }
    - { name: send-grounded, match: { tool: send }, action: allow, evidence: { requires: [recipient] } }
    - { name: per-session, match: { tool: sessioned }, action: rate_limit, limits: { max_calls: 5, window: 1h, key: session } }
  install:
    rules:
      - { name: block-evil, match: { name: 'evil-*' }, action: deny_install, feedback: { message: Known malware } }
budgets:
  - name: pot
    limit: 10
    currency: USD
    window: 1h
    contributors: [ { match: { tool: charge }, field: amount } ]
  - name: glass
    limit: 5
    currency: USD
    window: session
    key: session
    on_exceed: require_approval
    approval: { channel: dashboard, timeout: 1m }
    contributors: [ { match: { tool: splurge }, field: cost } ]
`;

interface RecordRow {
  readonly id: string;
  readonly tool_name: string;
  readonly policy_decision: string;
  readonly block_reason: string | null;
  readonly record_kind: string;
  readonly dry_run: boolean;
  readonly approval_status: string | null;
  readonly approved_by: string | null;
  readonly evidence_chain: Record<string, any> | null; // eslint-disable-line @typescript-eslint/no-explicit-any
  readonly environment: string | null;
  readonly matched_rule: string | null;
  readonly upstream_error: string | null;
}

let app: GovernanceApp;
beforeAll(async () => {
  app = await startGovernanceApp(policy);
});
afterAll(async () => {
  await app?.close();
});

const evaluate = (body: Record<string, unknown>) => app.post('/evaluate', body);
const audit = (body: Record<string, unknown>) => app.post('/audit', body);

/** The audit record with this id, once written (allow records are buffered up to ~100 ms). */
async function record(id: string): Promise<RecordRow> {
  let rows: RecordRow[] = [];
  await expect
    .poll(async () => {
      rows = await app.query<RecordRow>(
        `SELECT id::text, tool_name, policy_decision, block_reason, record_kind, dry_run, approval_status,
                approved_by, evidence_chain, environment, matched_rule, upstream_error
         FROM audit_records WHERE id = $1`,
        [id],
      );
      return rows.length;
    }, POLL)
    .toBe(1);
  return rows[0] as RecordRow;
}

/** A terminal decision: any later /audit replays 200 finalized_by "evaluate"; returns its record. */
async function terminalRecord(evaluated: Reply): Promise<RecordRow> {
  const replay = await audit({
    evaluation_id: evaluated.body.evaluation_id,
    status: 'success',
    duration_ms: 5,
  });
  expect(replay).toMatchObject({
    status: 200,
    body: { ok: true, already_finalized: true, finalized_by: 'evaluate' },
  });
  return record(replay.body.audit_record_id as string);
}

describe('decisions on the wire, each with its audit record', () => {
  it('deny: the rule feedback, terminal, block_reason policy_denied', async () => {
    const denied = await evaluate({ tool: { name: 'rm' }, arguments: { path: '/' } });
    expect(denied).toEqual({
      status: 200,
      body: {
        evaluation_id: expect.any(String),
        decision: 'deny',
        reason: 'Matched "no-rm" → deny',
        matched_rule: 'no-rm',
        matched_rule_index: 0,
        feedback: { message: 'Deleting is not allowed', suggestion: 'Archive instead' },
      },
    });
    expect(await terminalRecord(denied)).toMatchObject({
      policy_decision: 'deny',
      block_reason: 'policy_denied',
      record_kind: 'tool_call',
      environment: 'conformance',
    });
  });

  it('rate_limit: allow with a rate block while there is headroom; not_executed consumes nothing; then rate_limited', async () => {
    const now = app.clock.now();
    const first = await evaluate({ tool: { name: 'ping' } });
    expect(first.body).toMatchObject({
      decision: 'allow',
      matched_rule: 'ping-rate',
      matched_rule_index: 2,
      limits: { rate: { current: 1, limit: 2, window_ms: HOUR, reset_at_ms: now + HOUR } },
    });
    expect((await audit({ evaluation_id: first.body.evaluation_id, status: 'not_executed' })).status).toBe(
      201,
    );
    for (const status of ['success', 'error']) {
      const allowed = await evaluate({ tool: { name: 'ping' } });
      expect(allowed.body.decision).toBe('allow');
      expect((await audit({ evaluation_id: allowed.body.evaluation_id, status })).status).toBe(201);
    }
    const limited = await evaluate({ tool: { name: 'ping' } });
    expect(limited.body).toMatchObject({
      decision: 'rate_limited',
      matched_rule: 'ping-rate',
      limits: { rate: { current: 2, limit: 2, window_ms: HOUR, reset_at_ms: now + HOUR } },
    });
    expect(await terminalRecord(limited)).toMatchObject({
      policy_decision: 'rate_limit',
      block_reason: 'rate_limited',
      evidence_chain: { rate: { current: 2, limit: 2 } },
    });
  });

  it('spend_limit: inclusive limit, actual_amount overrides, invalid amounts fail closed', async () => {
    const six = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 6 } });
    expect(six.body).toMatchObject({
      decision: 'allow',
      limits: { spend: { current_spend: 6, limit: 10, currency: 'USD', window_ms: HOUR } },
    });
    expect(
      await audit({ evaluation_id: six.body.evaluation_id, status: 'success', actual_amount: -1 }),
    ).toMatchObject({ status: 400, body: { error: 'invalid_actual_amount' } });
    // The realized cost (5) replaces the argument's 6.
    expect(
      (await audit({ evaluation_id: six.body.evaluation_id, status: 'success', actual_amount: 5 })).status,
    ).toBe(201);
    const over = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 5.01 } });
    expect(over.body).toMatchObject({
      decision: 'spend_limited',
      limits: { spend: { current_spend: 5, limit: 10 } },
    });
    expect(await terminalRecord(over)).toMatchObject({
      policy_decision: 'spend_limit',
      block_reason: 'spend_limited',
    });
    const exact = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 5 } });
    expect(exact.body).toMatchObject({ decision: 'allow', limits: { spend: { current_spend: 10 } } });
    expect((await audit({ evaluation_id: exact.body.evaluation_id, status: 'not_executed' })).status).toBe(
      201,
    );

    const unreadable = await evaluate({ tool: { name: 'buy' }, arguments: { amount: 'ten' } });
    expect(unreadable.body).toMatchObject({
      decision: 'spend_limited',
      limits: { spend: { reason: 'invalid_amount', limit: 10, currency: 'USD' } },
    });
    expect((await terminalRecord(unreadable)).block_reason).toBe('spend_limited');
  });

  it('budgets: a limits.budgets block per matching budget; budget_exceeded is terminal and charges nothing', async () => {
    const now = app.clock.now();
    const seven = await evaluate({ tool: { name: 'charge' }, arguments: { amount: 7 } });
    expect(seven.body).toMatchObject({
      decision: 'allow',
      limits: {
        budgets: [
          {
            name: 'pot',
            limit: 10,
            spent: 0,
            remaining: 10,
            attempted_amount: 7,
            currency: 'USD',
            window: '1h',
            on_exceed: 'deny',
            allowed: true,
            // Epoch ms: an empty sliding pot resets one window from now.
            reset_at_ms: now + HOUR,
          },
        ],
      },
    });
    const audited = await audit({ evaluation_id: seven.body.evaluation_id, status: 'success' });
    expect(audited.status).toBe(201);
    expect(
      await app.query(
        `SELECT kind, amount::text AS amount, tool_name FROM budget_events WHERE audit_record_id = $1`,
        [audited.body.audit_record_id],
      ),
    ).toEqual([{ kind: 'spend', amount: '7000000', tool_name: 'charge' }]);

    const four = await evaluate({ tool: { name: 'charge' }, arguments: { amount: 4 } });
    expect(four.body).toMatchObject({
      decision: 'budget_exceeded',
      limits: { budgets: [{ name: 'pot', spent: 7, remaining: 3, attempted_amount: 4, allowed: false }] },
    });
    const breached = await terminalRecord(four);
    expect(breached).toMatchObject({ block_reason: 'budget_exceeded' });
    expect(await app.query(`SELECT 1 FROM budget_events WHERE audit_record_id = $1`, [breached.id])).toEqual(
      [],
    );

    for (const amount of [undefined, -1, '7']) {
      const invalid = await evaluate({ tool: { name: 'charge' }, arguments: { amount } });
      expect(invalid.body, String(amount)).toMatchObject({
        decision: 'budget_exceeded',
        limits: { budgets: [{ name: 'pot', attempted_amount: null, reason: 'invalid_amount', spent: 7 }] },
      });
    }
    // A break-glass budget never opens a ticket for an amount it cannot count: it fails closed.
    const negative = await evaluate({
      session_id: 'neg',
      tool: { name: 'splurge' },
      arguments: { cost: -6 },
    });
    expect(negative.body).toMatchObject({
      decision: 'budget_exceeded',
      limits: { budgets: [{ name: 'glass', attempted_amount: null, reason: 'invalid_amount' }] },
    });
    expect(negative.body).not.toHaveProperty('approval');
    // actual_amount applies only to evaluations that track money.
    const plain = await evaluate({ tool: { name: 'ls' } });
    expect(
      await audit({ evaluation_id: plain.body.evaluation_id, status: 'success', actual_amount: 1 }),
    ).toEqual({
      status: 400,
      body: { error: 'no_spend_rule' },
    });
    expect((await audit({ evaluation_id: plain.body.evaluation_id, status: 'success' })).status).toBe(201);
  });

  it('a break-glass budget breach is require_approval with one native ticket; approved + success commits approved_overage', async () => {
    const call = { session_id: 'glass-1', tool: { name: 'splurge' }, arguments: { cost: 6 } };
    const evaluated = await evaluate(call);
    expect(evaluated.body).toMatchObject({
      decision: 'require_approval',
      matched_rule: null,
      approval: { id: expect.any(String), timeout_ms: 60_000 },
      limits: {
        budgets: [
          {
            name: 'glass',
            window: 'session',
            on_exceed: 'require_approval',
            allowed: false,
            reset_at_ms: null,
          },
        ],
      },
      feedback: { message: expect.stringContaining('glass') },
    });
    const approval = evaluated.body.approval as { id: string; resolve_path: string };
    expect(approval.resolve_path).toBe(`/approval/${approval.id}/resolve`);
    expect(
      await app.query(`SELECT channel_name, status FROM approval_tickets WHERE id = $1`, [approval.id]),
    ).toEqual([{ channel_name: 'native:sideband', status: 'pending' }]);
    expect(
      (await app.post(approval.resolve_path, { resolution: 'approved', resolved_by: 'ops' })).status,
    ).toBe(200);
    const audited = await audit({ evaluation_id: evaluated.body.evaluation_id, status: 'success' });
    expect(audited.status).toBe(201);
    expect(
      await app.query(`SELECT kind, amount::text AS amount FROM budget_events WHERE audit_record_id = $1`, [
        audited.body.audit_record_id,
      ]),
    ).toEqual([{ kind: 'approved_overage', amount: '6000000' }]);
    expect(await record(audited.body.audit_record_id as string)).toMatchObject({
      approval_status: 'approved',
      approved_by: 'ops',
      block_reason: null,
    });
  });

  it('dry_run: simulated, terminal, never forwards', async () => {
    const simulated = await evaluate({ tool: { name: 'simulate' } });
    expect(simulated.body).toMatchObject({
      decision: 'dry_run',
      matched_rule: 'sim',
      dry_run: { would_forward: false, evidence_satisfied: true, limits_ok: true },
    });
    expect(await terminalRecord(simulated)).toMatchObject({
      policy_decision: 'dry_run',
      dry_run: true,
      block_reason: null,
    });
  });

  it('a session-keyed limit without a session_id is denied as session_unresolved', async () => {
    const anonymous = await evaluate({ tool: { name: 'sessioned' }, session_id: '   ' });
    expect(anonymous.body).toMatchObject({
      decision: 'deny',
      reason:
        'No session identity resolved (tried: header "x-helio-session-id", legacy_header) — a session-keyed limit or budget requires one. See session.identity in helio.yaml.',
    });
    expect(await terminalRecord(anonymous)).toMatchObject({
      block_reason: 'session_unresolved',
      evidence_chain: { session: { unresolved: true } },
    });
    expect((await evaluate({ tool: { name: 'sessioned' }, session_id: 'u1' })).body.decision).toBe('allow');
  });

  it('a drifted tool definition is denied with its tool_drift changes', async () => {
    const tool = { name: 'fetcher', description: 'Fetches a URL', annotations: { readOnlyHint: true } };
    expect((await evaluate({ origin: 'drift-origin', tool })).body.decision).toBe('allow');
    const drifted = await evaluate({ origin: 'drift-origin', tool: { ...tool, description: 'Sends mail' } });
    expect(drifted.body).toMatchObject({
      decision: 'deny',
      tool_drift: { changes: [expect.objectContaining({ aspect: 'description' })] },
    });
    expect((await terminalRecord(drifted)).block_reason).toBe('tool_definition_drift');
  });

  it('install scans: a deny_install rule denies with an install_scan record; others are allowed', async () => {
    const denied = await app.post('/install-scan', {
      origin: 'openclaw',
      package: { name: 'evil-pkg', version: '1.0.0', source: 'npm' },
      metadata: { sender_id: 'U7' },
    });
    expect(denied).toEqual({
      status: 200,
      body: {
        evaluation_id: expect.any(String),
        decision: 'deny',
        reason: 'Matched "block-evil" → deny_install',
        matched_rule: 'block-evil',
        matched_rule_index: 0,
        feedback: { message: 'Known malware' },
      },
    });
    const rows = await app.query<RecordRow>(
      `SELECT tool_name, policy_decision, block_reason, record_kind FROM audit_records WHERE tool_name LIKE 'install:%evil-pkg'`,
    );
    expect(rows).toEqual([
      {
        tool_name: 'install:npm:evil-pkg',
        policy_decision: 'deny',
        block_reason: 'install_denied',
        record_kind: 'install_scan',
      },
    ]);
    expect((await app.post('/install-scan', { package: { name: 'left-pad' } })).body).toMatchObject({
      decision: 'allow',
      matched_rule: null,
    });
    expect(await app.post('/install-scan', { package: { name: 'x' }, metadata: { agent_id: 'a' } })).toEqual({
      status: 400,
      body: { error: 'reserved_metadata_key', key: 'agent_id' },
    });
  });
});

describe('/audit evidence and idempotency', () => {
  it('reports every entry softly, stores only allow-listed keys, and hashes evidence order-independently', async () => {
    const evaluated = await evaluate({ session_id: 'ev-1', tool: { name: 'lookup' } });
    const evidence = [
      { evidence_key: 'recipient', evidence_data: { to: 'a@b.c' }, ttl_seconds: 60 },
      { evidence_key: 'unlisted', evidence_data: 1 },
      { evidence_key: 'recipient', evidence_data: 'x'.repeat(64 * 1024) },
    ];
    const audited = await audit({ evaluation_id: evaluated.body.evaluation_id, status: 'success', evidence });
    expect(audited).toEqual({
      status: 201,
      body: {
        ok: true,
        audit_record_id: expect.any(String),
        evidence: [
          { evidence_key: 'recipient', stored: true },
          { evidence_key: 'unlisted', stored: false, reason: 'key_not_in_policy_allowlist' },
          { evidence_key: 'recipient', stored: false, reason: 'too_large' },
        ],
      },
    });
    const reordered = [evidence[2], evidence[0], evidence[1]];
    expect(
      await audit({ evaluation_id: evaluated.body.evaluation_id, status: 'success', evidence: reordered }),
    ).toMatchObject({ status: 200, body: { already_finalized: true } });
    expect(
      await audit({
        evaluation_id: evaluated.body.evaluation_id,
        status: 'success',
        evidence: evidence.slice(1),
      }),
    ).toEqual({ status: 409, body: { error: 'evaluation_conflict' } });
    // The stored entry grounds the session's next grounded call.
    expect((await evaluate({ session_id: 'ev-1', tool: { name: 'send' } })).body.decision).toBe('allow');
    expect((await app.get('/session/ev-1/state', SDK_TOKEN)).body).toMatchObject({
      evidence: { recipient: { evidence_key: 'recipient', data: { to: 'a@b.c' } } },
      completed_tools: [{ tool_name: 'lookup', succeeded: true }],
    });
  });

  it('keeps at most 16 entries and needs a session', async () => {
    const entries = Array.from({ length: 17 }, () => ({ evidence_key: 'recipient', evidence_data: 1 }));
    const withSession = await evaluate({ session_id: 'ev-2', tool: { name: 'lookup' } });
    const many = await audit({
      evaluation_id: withSession.body.evaluation_id,
      status: 'success',
      evidence: entries,
    });
    expect(many.body.evidence).toHaveLength(17);
    expect(many.body.evidence[16]).toEqual({ evidence_key: 'recipient', stored: false, reason: 'too_many' });
    expect(many.body.evidence[15]).toEqual({ evidence_key: 'recipient', stored: true });
    const sessionless = await evaluate({ tool: { name: 'lookup' } });
    expect(
      (
        await audit({
          evaluation_id: sessionless.body.evaluation_id,
          status: 'success',
          evidence: entries.slice(0, 1),
        })
      ).body.evidence,
    ).toEqual([{ evidence_key: 'recipient', stored: false, reason: 'no_session' }]);
  });
});

describe('POST /evidence (SDK scope)', () => {
  it('refuses keys outside the allowlist and data over 64 KiB', async () => {
    const put = (evidence_key: string, evidence_data: unknown) =>
      app.post('/evidence', { session_id: 's', tool_name: 't', evidence_key, evidence_data }, SDK_TOKEN);
    expect(await put('nope', 1)).toEqual({
      status: 400,
      body: {
        error: 'Evidence key is not in policy allowlist',
        code: 'evidence_key_not_in_policy_allowlist',
        key: 'nope',
        allowed_keys: ['recipient'],
        allowed_key_count: 1,
        truncated: false,
      },
    });
    // A JSON string of n characters serializes to n + 2 bytes.
    expect((await put('recipient', 'x'.repeat(64 * 1024 - 2))).status).toBe(201);
    expect(await put('recipient', 'x'.repeat(64 * 1024 - 1))).toEqual({
      status: 413,
      body: { error: 'evidence_too_large' },
    });
    expect(
      await app.post('/context', { session_id: 's', key: 'k', value: 'x'.repeat(64 * 1024 - 1) }, SDK_TOKEN),
    ).toEqual({
      status: 413,
      body: { error: 'context_too_large' },
    });
  });
});

describe('native approvals', () => {
  it('audit before resolve is 409; a denial with its reason; then audit records approval_denied', async () => {
    const evaluated = await evaluate({ session_id: 'ap-1', tool: { name: 'wire' }, arguments: { to: 'x' } });
    expect(evaluated.body).toMatchObject({
      decision: 'require_approval',
      matched_rule: 'wire-needs-ok',
      approval: { timeout_ms: 30_000 },
    });
    const path = evaluated.body.approval.resolve_path as string;
    const auditBody = { evaluation_id: evaluated.body.evaluation_id, status: 'not_executed' };
    expect(await audit(auditBody)).toEqual({ status: 409, body: { error: 'approval_unresolved' } });
    expect(await app.post(path, { resolution: 'denied' })).toEqual({
      status: 400,
      body: { error: 'resolved_by is required for approved/denied', code: 'resolved_by_required' },
    });
    expect(await app.post(path, { resolution: 'later' })).toMatchObject({
      status: 400,
      body: { error: 'Validation error', code: 'invalid_request' },
    });
    expect(
      await app.post(path, {
        resolution: 'denied',
        resolved_by: 'tg:@oli',
        reason: 'too much',
        scope: 'always',
      }),
    ).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(await app.post(path, { resolution: 'approved', resolved_by: 'tg:@oli' })).toEqual({
      status: 409,
      body: { error: 'already_resolved', status: 'denied' },
    });
    const audited = await audit(auditBody);
    expect(audited.status).toBe(201);
    expect(await record(audited.body.audit_record_id as string)).toMatchObject({
      approval_status: 'denied',
      approved_by: 'tg:@oli',
      block_reason: 'approval_denied',
      evidence_chain: { approval: { denial_reason: 'too much' } },
    });
    expect(await app.post('/approval/no-such-ticket/resolve', { resolution: 'cancelled' })).toEqual({
      status: 404,
      body: { error: 'ticket_not_found' },
    });
  });

  it('a resolve past min(rule timeout, evaluation TTL) is 409 already_resolved with status timeout', async () => {
    const evaluated = await evaluate({ tool: { name: 'wire' } });
    const path = evaluated.body.approval.resolve_path as string;
    app.clock.advance(30_000 - 1);
    const cancelled = await evaluate({ tool: { name: 'wire' } });
    app.clock.advance(1);
    expect(await app.post(path, { resolution: 'approved', resolved_by: 'late' })).toEqual({
      status: 409,
      body: { error: 'already_resolved', status: 'timeout' },
    });
    const audited = await audit({ evaluation_id: evaluated.body.evaluation_id, status: 'not_executed' });
    expect(await record(audited.body.audit_record_id as string)).toMatchObject({
      approval_status: 'timeout',
      block_reason: 'approval_timeout',
    });
    // The second ticket is 1 ms younger: still open, and cancellable without a resolver.
    expect(
      await app.post(cancelled.body.approval.resolve_path as string, { resolution: 'cancelled' }),
    ).toEqual({
      status: 200,
      body: { ok: true },
    });
    expect(
      (await audit({ evaluation_id: cancelled.body.evaluation_id, status: 'not_executed' })).status,
    ).toBe(201);
  });
});

describe('concurrency', () => {
  it('50 parallel evaluate/audit pairs against one rate bucket (10 calls) admit exactly 10', async () => {
    const pairs = await Promise.all(
      Array.from({ length: 50 }, async (_, i) => {
        const evaluated = await evaluate({ tool: { name: 'burst' }, arguments: { i } });
        if (evaluated.body.decision !== 'allow') return evaluated.body.decision as string;
        const audited = await audit({ evaluation_id: evaluated.body.evaluation_id, status: 'success' });
        return audited.status === 201 ? 'charged' : `audit ${audited.status}`;
      }),
    );
    expect(pairs.filter((p) => p === 'charged')).toHaveLength(10);
    expect(pairs.filter((p) => p === 'rate_limited')).toHaveLength(40);
    expect((await evaluate({ tool: { name: 'burst' } })).body).toMatchObject({
      decision: 'rate_limited',
      limits: { rate: { current: 10, limit: 10 } },
    });
    const [charges] = await app.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM limit_charge_entries WHERE bucket_id LIKE '%tool:burst:rule:3'`,
    );
    expect(charges?.n).toBe(10);
  });
});

// Last: these move the injected clock by whole TTLs.
describe('TTL expiry (injected clock)', () => {
  it('an unaudited evaluation expires into evaluation_expired; its id is then unknown one TTL later', async () => {
    const evaluated = await evaluate({ tool: { name: 'ttl-probe' }, arguments: { marker: 'expire-me' } });
    const terminal = await evaluate({ tool: { name: 'rm' } });
    const audited = await evaluate({ tool: { name: 'ls' } });
    const auditBody = { evaluation_id: audited.body.evaluation_id, status: 'success' };
    expect((await audit(auditBody)).status).toBe(201);

    app.clock.advance(TTL - 1);
    expect((await audit(auditBody)).status).toBe(200);
    expect((await audit({ evaluation_id: terminal.body.evaluation_id, status: 'error' })).status).toBe(200);
    app.clock.advance(1);
    expect(await audit({ evaluation_id: evaluated.body.evaluation_id, status: 'success' })).toEqual({
      status: 404,
      body: { error: 'evaluation_expired' },
    });
    const [expired] = await app.query<{
      record_kind: string;
      block_reason: string | null;
      evidence_chain: unknown;
    }>(
      `SELECT record_kind, block_reason, evidence_chain FROM audit_records WHERE tool_input->>'marker' = 'expire-me'`,
    );
    expect(expired).toEqual({
      record_kind: 'evaluation_expired',
      block_reason: null,
      evidence_chain: { sideband: { unreported: true } },
    });
    // Finalized ids are remembered for one TTL after finalization, then forgotten.
    expect(await audit(auditBody)).toEqual({ status: 404, body: { error: 'evaluation_unknown' } });
    expect(await audit({ evaluation_id: terminal.body.evaluation_id, status: 'error' })).toEqual({
      status: 404,
      body: { error: 'evaluation_unknown' },
    });
    app.clock.advance(TTL);
    expect(await audit({ evaluation_id: evaluated.body.evaluation_id, status: 'success' })).toEqual({
      status: 404,
      body: { error: 'evaluation_unknown' },
    });
  });
});
