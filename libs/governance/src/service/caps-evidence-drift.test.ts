import { describe, expect, it } from 'vitest';
import { harness } from '../testing/service-harness.js';
import { type EvaluateResult } from './results.js';
import { type EvaluateResponseBody } from './wire-types.js';

function body(result: EvaluateResult): EvaluateResponseBody {
  if (result.type !== 'decided') throw new Error(`expected a decision, got ${JSON.stringify(result)}`);
  return result.body;
}

const OPEN = "version: '1'\nsdk: { enabled: true }\n";

describe('bounded growth: every cap at n and n+1', () => {
  it('tool_input and metadata sizes, and the reserved agent_id key', async () => {
    const h = await harness(OPEN, { limits: { maxToolInputBytes: 20, maxMetadataBytes: 20 } });
    const fits = { a: 'x'.repeat(12) }; // {"a":"xxxxxxxxxxxx"} = 20 bytes
    expect((await h.service.evaluate({ tool: { name: 't' }, arguments: fits })).status).toBe(200);
    expect(await h.service.evaluate({ tool: { name: 't' }, arguments: { a: 'x'.repeat(13) } })).toMatchObject(
      {
        status: 413,
        body: { error: 'tool_input_too_large' },
      },
    );
    expect((await h.service.evaluate({ tool: { name: 't' }, metadata: fits })).status).toBe(200);
    expect(await h.service.evaluate({ tool: { name: 't' }, metadata: { a: 'x'.repeat(13) } })).toMatchObject({
      status: 413,
      body: { error: 'metadata_too_large' },
    });
    expect(await h.service.evaluate({ tool: { name: 't' }, metadata: { agent_id: 'x' } })).toMatchObject({
      status: 400,
      body: { error: 'reserved_metadata_key', key: 'agent_id' },
    });
  });

  it('distinct origins', async () => {
    const h = await harness(OPEN, { limits: { maxOrigins: 2 } });
    expect((await h.service.evaluate({ tool: { name: 't' }, origin: 'a' })).status).toBe(200);
    expect((await h.service.evaluate({ tool: { name: 't' }, origin: 'b' })).status).toBe(200);
    expect(await h.service.evaluate({ tool: { name: 't' }, origin: 'c' })).toMatchObject({
      status: 400,
      body: { error: 'origin_limit_exceeded' },
    });
    expect((await h.service.evaluate({ tool: { name: 't' }, origin: 'a' })).status).toBe(200);
  });

  it('baselined tools per origin (first-seen only; known tools keep updating)', async () => {
    const h = await harness("version: '1'\npolicies: { on_tool_drift: log }\n", {
      limits: { maxToolsPerOrigin: 2 },
    });
    const def = (name: string, description: string) => ({ tool: { name, description } });
    expect((await h.service.evaluate(def('a', '1'))).status).toBe(200);
    expect((await h.service.evaluate(def('b', '1'))).status).toBe(200);
    expect(await h.service.evaluate(def('c', '1'))).toMatchObject({
      status: 400,
      body: { error: 'tool_baseline_limit' },
    });
    expect((await h.service.evaluate(def('a', '2'))).status).toBe(200);
    expect((await h.service.evaluate({ tool: { name: 'c' } })).status).toBe(200);
  });

  it('pending evaluations by count and by bytes', async () => {
    const h = await harness(OPEN, { limits: { maxPendingEvaluations: 2 } });
    expect((await h.service.evaluate({ tool: { name: 't' } })).status).toBe(200);
    expect((await h.service.evaluate({ tool: { name: 't' } })).status).toBe(200);
    expect(await h.service.evaluate({ tool: { name: 't' } })).toMatchObject({
      status: 503,
      body: { error: 'evaluation_backlog_full' },
    });
    expect(h.pending.backlog().count).toBe(2);
    const bytes = await harness(OPEN, { limits: { maxPendingBytes: 200 } });
    expect(
      (await bytes.service.evaluate({ tool: { name: 't' }, arguments: { a: 'x'.repeat(100) } })).status,
    ).toBe(200);
    expect(
      (await bytes.service.evaluate({ tool: { name: 't' }, arguments: { a: 'x'.repeat(100) } })).status,
    ).toBe(503);
  });

  it('a backlog that fills between the pre-check and admission releases the holds it placed', async () => {
    const h = await harness(
      "version: '1'\nbudgets: [ { name: p, limit: 1, currency: USD, window: 1h, contributors: [ { match: { tool: t }, field: a } ] } ]\n",
      { limits: { maxPendingBytes: 220 } },
    );
    const result = await h.service.evaluate({
      tool: { name: 't' },
      arguments: { a: 1, pad: 'x'.repeat(90) },
    });
    expect(result).toMatchObject({ status: 503, body: { error: 'evaluation_backlog_full' } });
    expect(h.limits.usage({ family: 'budget', key: 'budget:p:global', epoch: 1 }, h.clock.now())).toBe(0n);
  });

  it('distinct sender keys, released when their bucket empties', async () => {
    const h = await harness(
      `${OPEN}policies: { rules: [ { match: {}, action: rate_limit, limits: { max_calls: 5, window: 1m, key: sender_id } } ] }\n`,
      { limits: { maxSenderKeys: 2 } },
    );
    const call = (sender: string) =>
      h.service.evaluate({ tool: { name: 't' }, metadata: { sender_id: sender } });
    const first = body(await call('U1'));
    expect((await call('U2')).status).toBe(200);
    expect(await call('U3')).toMatchObject({ status: 503, body: { error: 'limit_capacity_exhausted' } });
    expect((await call('U1')).status).toBe(200);
    await h.service.audit({ evaluation_id: first.evaluation_id, status: 'not_executed' });
    expect((await call('U3')).status).toBe(503);
    h.clock.advance(600_000);
    await h.service.sweep();
    expect((await call('U3')).status).toBe(200);
  });
});

describe('evidence on /audit', () => {
  const GROUNDED = `
version: '1'
policies:
  rules:
    - { name: send, match: { tool: send }, action: allow, evidence: { requires: [recipient] }, requires: [lookup] }
    - { match: {}, action: allow }
`;

  it('writes allow-listed evidence once, on success, bound to the evaluation session; grounding then passes', async () => {
    const h = await harness(GROUNDED, { limits: { maxEvidenceEntries: 3, maxEvidenceBytes: 30 } });
    expect(body(await h.service.evaluate({ tool: { name: 'send' }, session_id: 's' }))).toMatchObject({
      decision: 'deny',
      reason: 'Missing required evidence: recipient',
    });
    expect(h.audit.records.at(-1)?.record.blockReason).toBe('evidence_missing');
    const lookup = body(await h.service.evaluate({ tool: { name: 'lookup' }, session_id: 's' }));
    const evidence = [
      { evidence_key: 'recipient', evidence_data: { to: 'a@b.c' }, ttl_seconds: 60 },
      { evidence_key: 'other', evidence_data: 1 },
      { evidence_key: 'recipient', evidence_data: 'x'.repeat(40) },
      { evidence_key: 'recipient', evidence_data: 2 },
    ];
    const audited = await h.service.audit({
      evaluation_id: lookup.evaluation_id,
      status: 'success',
      evidence,
    });
    expect(audited).toMatchObject({
      status: 201,
      body: {
        evidence: [
          { evidence_key: 'recipient', stored: true },
          { evidence_key: 'other', stored: false, reason: 'key_not_in_policy_allowlist' },
          { evidence_key: 'recipient', stored: false, reason: 'too_large' },
          { evidence_key: 'recipient', stored: false, reason: 'too_many' },
        ],
      },
    });
    // Replays are order-independent and never re-write; divergent evidence conflicts.
    expect(
      (
        await h.service.audit({
          evaluation_id: lookup.evaluation_id,
          status: 'success',
          evidence: [...evidence].reverse(),
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await h.service.audit({
          evaluation_id: lookup.evaluation_id,
          status: 'success',
          evidence: evidence.slice(1),
        })
      ).status,
    ).toBe(409);
    expect(h.evidence.read('s', 'recipient')).toEqual({ to: 'a@b.c' });
    expect(body(await h.service.evaluate({ tool: { name: 'send' }, session_id: 's' })).decision).toBe(
      'allow',
    );
    h.clock.advance(60_000);
    expect(body(await h.service.evaluate({ tool: { name: 'send' }, session_id: 's' }))).toMatchObject({
      decision: 'deny',
      reason: 'Required evidence expired: recipient',
    });
  });

  it('reports no_session, evidence_unavailable and closed per entry; ignores evidence unless success', async () => {
    const h = await harness(GROUNDED);
    const noSession = body(await h.service.evaluate({ tool: { name: 'x' } }));
    const entry = [{ evidence_key: 'recipient', evidence_data: null }];
    expect(
      (await h.service.audit({ evaluation_id: noSession.evaluation_id, status: 'success', evidence: entry }))
        .body,
    ).toMatchObject({
      evidence: [{ reason: 'no_session' }],
    });
    const failed = body(await h.service.evaluate({ tool: { name: 'x' }, session_id: 's' }));
    const failedAudit = await h.service.audit({
      evaluation_id: failed.evaluation_id,
      status: 'error',
      evidence: entry,
    });
    expect(failedAudit.body).not.toHaveProperty('evidence');
    h.evidence.close();
    const closed = body(await h.service.evaluate({ tool: { name: 'x' }, session_id: 's' }));
    expect(
      (await h.service.audit({ evaluation_id: closed.evaluation_id, status: 'success', evidence: entry }))
        .body,
    ).toMatchObject({
      evidence: [{ reason: 'closed' }],
    });
    const bare = await harness(GROUNDED, { evidence: false });
    const e = body(await bare.service.evaluate({ tool: { name: 'send' }, session_id: 's' }));
    expect(e.decision).toBe('allow');
    expect(
      (await bare.service.audit({ evaluation_id: e.evaluation_id, status: 'success', evidence: entry })).body,
    ).toMatchObject({
      evidence: [{ reason: 'evidence_unavailable' }],
    });
  });

  it('dependencies need a successful prior call; a failure does not erase it', async () => {
    const h = await harness(GROUNDED);
    const put = body(await h.service.evaluate({ tool: { name: 'x' }, session_id: 's' }));
    await h.service.audit({
      evaluation_id: put.evaluation_id,
      status: 'success',
      evidence: [{ evidence_key: 'recipient', evidence_data: 1 }],
    });
    const missing = body(await h.service.evaluate({ tool: { name: 'send' }, session_id: 's' }));
    expect(missing.reason).toBe('Required prior tool calls missing: lookup');
    expect(h.audit.records.at(-1)?.record.blockReason).toBe('dependency_missing');
    for (const status of ['success', 'error'] as const) {
      const lookup = body(await h.service.evaluate({ tool: { name: 'lookup' }, session_id: 's' }));
      await h.service.audit({ evaluation_id: lookup.evaluation_id, status });
    }
    expect(body(await h.service.evaluate({ tool: { name: 'send' }, session_id: 's' })).decision).toBe(
      'allow',
    );
  });
});

describe('drift guard', () => {
  it('block mode denies a drifted tool with tool_drift changes; reverting clears it', async () => {
    const h = await harness("version: '1'\npolicies: { rules: [ { match: {}, action: allow } ] }\n");
    const tool = (description: string, annotations?: Record<string, unknown>) => ({
      tool: { name: 't', description, annotations, input_schema: { type: 'object' } },
    });
    expect(body(await h.service.evaluate(tool('v1'))).decision).toBe('allow');
    const drifted = body(await h.service.evaluate(tool('v2', { destructiveHint: true })));
    expect(drifted).toMatchObject({
      decision: 'deny',
      matched_rule: null,
      tool_drift: { changes: [{ aspect: 'annotations' }, { aspect: 'description' }] },
    });
    expect(h.audit.records.at(-1)?.record.blockReason).toBe('tool_definition_drift');
    expect(body(await h.service.evaluate(tool('v1'))).decision).toBe('allow');
    expect(
      body(
        await h.service.evaluate({
          tool: { name: 't', title: 'T', description: 'v1', input_schema: { type: 'object' } },
        }),
      ).tool_drift,
    ).toEqual({
      changes: [{ aspect: 'title' }],
    });
  });

  it('require_approval mode raises a native ticket on each drifted call', async () => {
    const h = await harness("version: '1'\npolicies: { on_tool_drift: require_approval }\n");
    await h.service.evaluate({ tool: { name: 't', output_schema: { a: 1 } }, origin: 'oc' });
    const drifted = body(
      await h.service.evaluate({ tool: { name: 't', output_schema: { a: 2 } }, origin: 'oc' }),
    );
    expect(drifted).toMatchObject({
      decision: 'require_approval',
      approval: { timeout_ms: 300_000 },
      tool_drift: { changes: [{ aspect: 'outputSchema' }] },
    });
  });
});

describe('global dry-run', () => {
  const DRY = `
version: '1'
session: { on_unresolved: deny }
policies:
  dry_run: true
  rules:
    - { name: no, match: { tool: rm }, action: deny }
    - { name: rate, match: { tool: r }, action: rate_limit, limits: { max_calls: 1, window: 1m, key: session } }
    - { name: spend, match: { tool: s }, action: spend_limit, limits: { max_spend: { field: a, limit: 1, currency: USD, window: 1m } } }
    - { name: ask, match: { tool: ask }, action: require_approval, feedback: { message: would ask } }
    - { name: ok, match: { tool: ok }, action: allow, feedback: { message: never shown } }
budgets:
  - { name: p, limit: 5, currency: USD, window: 1h, contributors: [ { match: { tool: ok }, field: a } ] }
`;

  it('simulates every outcome without holding, charging or ticketing', async () => {
    const h = await harness(DRY);
    const dry = async (name: string, extra: object = {}) =>
      body(await h.service.evaluate({ tool: { name }, ...extra }));
    expect(await dry('ok', { arguments: { a: 5 } })).toEqual(
      expect.objectContaining({
        decision: 'dry_run',
        dry_run: { would_forward: true, evidence_satisfied: true, limits_ok: true },
      }),
    );
    expect((await dry('ok', { arguments: { a: 5 } })).limits?.budgets?.[0]?.spent).toBe(0);
    expect((await dry('ok', { arguments: { a: 6 } })).dry_run).toEqual({
      would_forward: false,
      evidence_satisfied: true,
      limits_ok: false,
    });
    expect((await dry('ok', { arguments: { a: 6 } })).feedback).toBeUndefined();
    const denied = await dry('rm');
    expect(denied).toMatchObject({ dry_run: { would_forward: false, limits_ok: true } });
    expect(denied.feedback).toBeUndefined();
    expect(await dry('ask')).toMatchObject({
      dry_run: { would_forward: false },
      feedback: { message: 'would ask' },
    });
    expect(await dry('r')).toMatchObject({
      dry_run: { would_forward: false, limits_ok: false, session_unresolved: true },
    });
    expect(await dry('r', { session_id: 's' })).toMatchObject({
      dry_run: { would_forward: true },
      limits: { rate: { current: 1 } },
    });
    expect(await dry('s', { arguments: { a: 'x' } })).toMatchObject({
      dry_run: { would_forward: false },
      limits: { spend: { reason: 'invalid_amount' } },
    });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      dryRun: true,
      policyDecision: 'spend_limit',
      blockReason: null,
    });
    expect(h.limits.ledger()).toHaveLength(0);
  });
});

describe('install scans', () => {
  it('is observational without an install block', async () => {
    const h = await harness(OPEN);
    const result = await h.service.installScan({
      package: { name: 'left-pad', version: '1.3.0', source: 'npm' },
    });
    expect(result).toEqual({
      type: 'scanned',
      status: 200,
      body: {
        evaluation_id: 'id-0001',
        decision: 'allow',
        reason: 'no install-time rules defined',
        matched_rule: null,
        matched_rule_index: null,
      },
    });
    expect(h.audit.records[0]?.record).toMatchObject({
      recordKind: 'install_scan',
      toolName: 'install:npm:left-pad',
      blockReason: null,
    });
    expect(await h.service.audit({ evaluation_id: 'id-0001', status: 'success' })).toMatchObject({
      status: 200,
      body: { finalized_by: 'evaluate' },
    });
  });

  it('matches name globs, source and metadata; denies with install_denied', async () => {
    const h = await harness(`
version: '1'
policies:
  install:
    default: deny
    rules:
      - { name: block-evil, match: { name: "evil-*" }, action: deny_install, feedback: { message: nope, suggestion: pick another } }
      - { match: { source: npm, metadata: { agent_id: main } }, action: allow }
`);
    expect((await h.service.installScan({ package: { name: 'evil-x' } })).body).toMatchObject({
      decision: 'deny',
      reason: 'Matched "block-evil" → deny_install',
      matched_rule_index: 0,
      feedback: { message: 'nope', suggestion: 'pick another' },
    });
    expect(h.audit.records.at(-1)?.record).toMatchObject({
      policyDecision: 'deny',
      blockReason: 'install_denied',
      toolName: 'install:pkg:evil-x',
    });
    expect(
      (await h.service.installScan({ package: { name: 'ok', source: 'npm' }, agent_id: 'main' })).body,
    ).toMatchObject({
      decision: 'allow',
      matched_rule: null,
      matched_rule_index: 1,
    });
    expect((await h.service.installScan({ package: { name: 'ok', source: 'pip' } })).body).toMatchObject({
      decision: 'deny',
      reason: 'No matching install rule; default deny',
      feedback: { message: 'No matching install rule; default deny' },
    });
    expect(
      await h.service.installScan({ package: { name: 'a' }, metadata: { agent_id: 'x' } }),
    ).toMatchObject({ status: 400 });
    expect(
      await h.service.installScan({ package: { name: 'a' }, metadata: { a: 'x'.repeat(5000) } }),
    ).toMatchObject({ status: 413 });
  });
});

describe('concurrency', () => {
  it('50 parallel evaluate/audit pairs against one rate bucket never over-admit', async () => {
    const h = await harness(
      "version: '1'\npolicies: { rules: [ { match: {}, action: rate_limit, limits: { max_calls: 10, window: 1h } } ] }\n",
    );
    const results = await Promise.all(
      Array.from({ length: 50 }, async () => {
        const decided = body(await h.service.evaluate({ tool: { name: 't' } }));
        if (decided.decision === 'allow')
          await h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' });
        return decided.decision;
      }),
    );
    expect(results.filter((d) => d === 'allow')).toHaveLength(10);
    expect(h.limits.usage({ family: 'rate', key: 'tool:t:rule:0', epoch: 0 }, h.clock.now())).toBe(10n);
  });

  it('200 concurrent evaluate+audit pairs against a budget that admits 50 charge exactly 50', async () => {
    const h = await harness(
      "version: '1'\nbudgets: [ { name: p, limit: 50, currency: USD, window: 1h, contributors: [ { match: { tool: pay }, field: a } ] } ]\n",
    );
    await Promise.all(
      Array.from({ length: 200 }, async () => {
        const decided = body(await h.service.evaluate({ tool: { name: 'pay' }, arguments: { a: 1 } }));
        if (decided.decision === 'allow') {
          await Promise.all([
            h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
            h.service.audit({ evaluation_id: decided.evaluation_id, status: 'success' }),
          ]);
        }
      }),
    );
    expect(h.limits.ledger()).toHaveLength(50);
  });
});
