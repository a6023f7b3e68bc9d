/**
 * The client against the real GovernanceService (in-memory stores) behind a minimal node:http adapter
 * listener on 127.0.0.1: every answer here is one the engine actually produces.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { serveService, type Listener } from '../../test/support/miniature-listener.js';
import { harness, type Harness } from '../testing/service-harness.js';
import { GovernanceClient } from './governance-client.js';
import { mayProceed, type EvaluateDecided, type EvaluateOutcome } from './outcomes.js';

const TOKEN = 'adapter-token-0123456789abcdef';

const POLICY = `
version: '1'
sdk: { enabled: true }
policies:
  on_tool_drift: block
  rules:
    - { name: chat, match: { tool: chat }, action: allow }
    - { name: blocked, match: { tool: rm }, action: deny, feedback: { message: no deletes, suggestion: archive } }
    - { name: limited, match: { tool: limited }, action: rate_limit, limits: { max_calls: 1, window: 1m } }
    - { name: pay, match: { tool: pay }, action: spend_limit, limits: { max_spend: { field: amount, limit: 10, currency: USD, window: 1h } } }
    - { name: gate, match: { tool: gated }, action: require_approval, approval: { channel: dashboard, timeout: 2m } }
    - { name: sim, match: { tool: sim }, action: dry_run, feedback: { message: simulated } }
    - { name: rest, match: {}, action: allow }
  install:
    default: allow
    rules:
      - { name: block-evil, match: { name: "evil-*" }, action: deny_install, feedback: { message: nope } }
budgets:
  - name: pot
    limit: 50
    currency: USD
    window: 1h
    contributors: [ { match: { tool: buy }, field: amount } ]
`;

const open: Listener[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((listener) => listener.close()));
});

async function setup(token = TOKEN): Promise<{ h: Harness; server: Listener; client: GovernanceClient }> {
  const h = await harness(POLICY);
  const server = await serveService(h.service, TOKEN);
  open.push(server);
  return { h, server, client: new GovernanceClient({ baseUrl: `${server.url}/`, adapterToken: token }) };
}

function decided(outcome: EvaluateOutcome): EvaluateDecided {
  if (outcome.type !== 'Decided') throw new Error(`expected a decision, got ${JSON.stringify(outcome)}`);
  return outcome;
}

describe('GovernanceClient against the real service', () => {
  it('allow proceeds; audit finalizes (201) and an identical replay is 200 already_finalized', async () => {
    const { client, server } = await setup();
    const outcome = decided(await client.evaluate({ origin: 'openclaw', tool: { name: 'chat' } }));
    expect(outcome).toEqual({
      type: 'Decided',
      failClosed: false,
      decision: 'allow',
      evaluationId: 'id-0001',
      reason: 'Matched "chat" → allow',
      response: {
        evaluation_id: 'id-0001',
        decision: 'allow',
        reason: 'Matched "chat" → allow',
        matched_rule: 'chat',
        matched_rule_index: 0,
      },
    });
    expect(mayProceed(outcome)).toBe(true);
    const audit = { evaluation_id: outcome.evaluationId, status: 'success' as const, duration_ms: 3 };
    expect(await client.audit(audit)).toEqual({
      type: 'Audited',
      ok: true,
      status: 201,
      auditRecordId: 'id-0002',
      alreadyFinalized: false,
    });
    expect(await client.audit(audit)).toEqual({
      type: 'Audited',
      ok: true,
      status: 200,
      auditRecordId: 'id-0002',
      alreadyFinalized: true,
    });
    // Token scope: the adapter bearer, JSON, and never an Origin header.
    for (const headers of server.seen) {
      expect(headers.authorization).toBe(`Bearer ${TOKEN}`);
      expect(headers.origin).toBeUndefined();
      expect(headers['content-type']).toBe('application/json');
      expect(headers.cookie).toBeUndefined();
    }
    expect(server.paths).toEqual(['/evaluate', '/audit', '/audit']);
  });

  it('deny blocks with its feedback; a later audit is 200 finalized_by evaluate', async () => {
    const { client } = await setup();
    const outcome = decided(await client.evaluate({ tool: { name: 'rm' } }));
    expect(outcome.decision).toBe('deny');
    expect(outcome.response.feedback).toEqual({ message: 'no deletes', suggestion: 'archive' });
    expect(mayProceed(outcome)).toBe(false);
    expect(await client.audit({ evaluation_id: outcome.evaluationId, status: 'not_executed' })).toMatchObject(
      {
        type: 'Audited',
        status: 200,
        alreadyFinalized: true,
        finalizedBy: 'evaluate',
      },
    );
  });

  it('rate_limited, spend_limited, budget_exceeded and dry_run block, carrying their limit blocks', async () => {
    const { client } = await setup();
    const first = decided(await client.evaluate({ tool: { name: 'limited' } }));
    expect(first.response.limits?.rate).toMatchObject({ current: 1, limit: 1, window_ms: 60_000 });
    expect(mayProceed(first)).toBe(true);
    await client.audit({ evaluation_id: first.evaluationId, status: 'success' });
    const limited = decided(await client.evaluate({ tool: { name: 'limited' } }));
    expect(limited.decision).toBe('rate_limited');
    expect(mayProceed(limited)).toBe(false);

    const spend = decided(await client.evaluate({ tool: { name: 'pay' }, arguments: { amount: 25 } }));
    expect(spend.decision).toBe('spend_limited');
    expect(spend.response.limits?.spend).toMatchObject({ limit: 10, currency: 'USD' });
    expect(mayProceed(spend)).toBe(false);
    const invalid = decided(await client.evaluate({ tool: { name: 'pay' }, arguments: { amount: 'x' } }));
    expect(invalid.response.limits?.spend).toEqual({ reason: 'invalid_amount', limit: 10, currency: 'USD' });
    expect(mayProceed(invalid)).toBe(false);

    const budget = decided(await client.evaluate({ tool: { name: 'buy' }, arguments: { amount: 60 } }));
    expect(budget.decision).toBe('budget_exceeded');
    expect(budget.response.limits?.budgets).toEqual([
      expect.objectContaining({
        name: 'pot',
        limit: 50,
        attempted_amount: 60,
        allowed: false,
        on_exceed: 'deny',
      }),
    ]);
    expect(mayProceed(budget)).toBe(false);

    const dry = decided(await client.evaluate({ tool: { name: 'sim' } }));
    expect(dry.decision).toBe('dry_run');
    expect(dry.response.dry_run).toEqual({ would_forward: false, evidence_satisfied: true, limits_ok: true });
    expect(mayProceed(dry)).toBe(false);
  });

  it('drift in block mode is a deny with tool_drift changes', async () => {
    const { client } = await setup();
    expect(mayProceed(await client.evaluate({ tool: { name: 't', description: 'v1' } }))).toBe(true);
    const drifted = decided(await client.evaluate({ tool: { name: 't', description: 'v2' } }));
    expect(drifted.decision).toBe('deny');
    expect(drifted.response.reason).toBe('Tool "t" definition drifted from baseline (description)');
    expect(drifted.response.tool_drift).toStrictEqual({
      changes: [{ aspect: 'description', baseline: 'v1', current: 'v2' }],
    });
  });

  it('require_approval: audit is refused until resolved; an approved resolve proceeds', async () => {
    const { client, server } = await setup();
    const gated = decided(await client.evaluate({ origin: 'openclaw', tool: { name: 'gated' } }));
    expect(gated.decision).toBe('require_approval');
    expect(mayProceed(gated)).toBe(false);
    const ticketId = gated.response.approval?.id ?? '';
    expect(gated.response.approval).toEqual({
      id: ticketId,
      timeout_ms: 120_000,
      resolve_path: `/approval/${ticketId}/resolve`,
    });

    const refused = await client.audit({ evaluation_id: gated.evaluationId, status: 'success' });
    expect(refused).toMatchObject({ type: 'Refused', ok: false, error: 'approval_not_resolved', ticketId });
    expect(server.paths).toEqual(['/evaluate']); // nothing was sent

    // A failed resolve (400 from the server) does not unlock the audit.
    expect(await client.resolveApproval(ticketId, { resolution: 'approved' })).toEqual({
      type: 'Rejected',
      ok: false,
      failClosed: false,
      status: 400,
      error: 'resolved_by_required',
      reason: 'governance server rejected the request: 400 resolved_by_required',
    });
    expect(await client.audit({ evaluation_id: gated.evaluationId, status: 'success' })).toMatchObject({
      type: 'Refused',
    });

    const resolved = await client.resolveApproval(ticketId, {
      resolution: 'approved',
      resolved_by: 'telegram:@oli',
    });
    expect(resolved).toEqual({ type: 'Resolved', ok: true, ticketId, resolution: 'approved' });
    expect(mayProceed(resolved)).toBe(true);
    expect(await client.audit({ evaluation_id: gated.evaluationId, status: 'success' })).toMatchObject({
      type: 'Audited',
      status: 201,
    });

    const again = await client.resolveApproval(ticketId, { resolution: 'approved', resolved_by: 'x' });
    expect(again).toMatchObject({
      type: 'Rejected',
      status: 409,
      error: 'already_resolved',
      ticketStatus: 'approved',
    });
    expect(mayProceed(again)).toBe(false);
  });

  it('a denied resolve does not proceed but unlocks a not_executed audit', async () => {
    const { client, h } = await setup();
    const gated = decided(await client.evaluate({ tool: { name: 'gated' } }));
    const ticketId = gated.response.approval?.id ?? '';
    const denied = await client.resolveApproval(ticketId, {
      resolution: 'denied',
      resolved_by: 'u',
      reason: 'no',
    });
    expect(denied).toMatchObject({ type: 'Resolved', resolution: 'denied' });
    expect(mayProceed(denied)).toBe(false);
    const audited = await client.audit({ evaluation_id: gated.evaluationId, status: 'not_executed' });
    expect(audited).toMatchObject({ type: 'Audited', status: 201 });
    expect(h.audit.records.at(-1)?.record).toMatchObject({ approvalStatus: 'denied' });
  });

  it('a deadline-crossed resolve (409 already_resolved: timeout) unlocks the audit without proceeding', async () => {
    const { client, h } = await setup();
    const gated = decided(await client.evaluate({ tool: { name: 'gated' } }));
    h.clock.advance(121_000);
    const late = await client.resolveApproval(gated.response.approval?.id ?? '', {
      resolution: 'approved',
      resolved_by: 'u',
    });
    expect(late).toMatchObject({
      type: 'Rejected',
      status: 409,
      error: 'already_resolved',
      ticketStatus: 'timeout',
    });
    expect(mayProceed(late)).toBe(false);
    expect(await client.audit({ evaluation_id: gated.evaluationId, status: 'not_executed' })).toMatchObject({
      type: 'Audited',
      status: 201,
    });
  });

  it('unknown tickets are 404 ticket_not_found; a ticket id is path-encoded', async () => {
    const { client, server } = await setup();
    expect(await client.resolveApproval('a/b c', { resolution: 'cancelled' })).toMatchObject({
      type: 'Rejected',
      ok: false,
      status: 404,
      error: 'ticket_not_found',
    });
    expect(server.paths).toEqual(['/approval/a%2Fb%20c/resolve']);
  });

  it('4xx answers are typed errors with the server code; on /evaluate they block', async () => {
    const { client } = await setup();
    const reserved = await client.evaluate({ tool: { name: 'chat' }, metadata: { agent_id: 'x' } });
    expect(reserved).toEqual({
      type: 'Rejected',
      failClosed: false,
      decision: 'deny',
      status: 400,
      error: 'reserved_metadata_key',
      key: 'agent_id',
      reason: 'governance server rejected the request: 400 reserved_metadata_key',
    });
    expect(mayProceed(reserved)).toBe(false);
    expect(await client.audit({ evaluation_id: 'nope', status: 'success' })).toMatchObject({
      type: 'Rejected',
      ok: false,
      status: 404,
      error: 'evaluation_unknown',
    });
    const allowed = decided(await client.evaluate({ tool: { name: 'chat' } }));
    await client.audit({ evaluation_id: allowed.evaluationId, status: 'success' });
    expect(await client.audit({ evaluation_id: allowed.evaluationId, status: 'error' })).toMatchObject({
      status: 409,
      error: 'evaluation_conflict',
    });
  });

  it('reports per-entry evidence outcomes from /audit', async () => {
    const { client } = await setup();
    const allowed = decided(await client.evaluate({ tool: { name: 'chat' }, session_id: 's1' }));
    expect(
      await client.audit({
        evaluation_id: allowed.evaluationId,
        status: 'success',
        evidence: [{ evidence_key: 'recipient', evidence_data: { to: 'a@b.com' } }],
      }),
    ).toMatchObject({
      type: 'Audited',
      status: 201,
      evidence: [{ evidence_key: 'recipient', stored: false, reason: 'key_not_in_policy_allowlist' }],
    });
  });

  it('a wrong token is a 401 deny and is never echoed', async () => {
    const { client } = await setup('not-the-adapter-token');
    const outcome = await client.evaluate({ tool: { name: 'chat' } });
    expect(outcome).toMatchObject({ type: 'Rejected', decision: 'deny', status: 401, error: 'unauthorized' });
    expect(mayProceed(outcome)).toBe(false);
    expect(JSON.stringify(outcome)).not.toContain('not-the-adapter-token');
  });

  it('install scans: allow proceeds, a deny_install match blocks', async () => {
    const { client } = await setup();
    const ok = await client.installScan({ origin: 'openclaw', package: { name: 'left-pad', source: 'npm' } });
    expect(ok).toMatchObject({ type: 'Decided', decision: 'allow', failClosed: false });
    expect(mayProceed(ok)).toBe(true);
    const evil = await client.installScan({ package: { name: 'evil-x' } });
    expect(evil).toMatchObject({
      type: 'Decided',
      decision: 'deny',
      reason: 'Matched "block-evil" → deny_install',
      response: { matched_rule: 'block-evil', matched_rule_index: 0, feedback: { message: 'nope' } },
    });
    expect(mayProceed(evil)).toBe(false);
    expect(await client.installScan({ package: { name: 'a' }, metadata: { agent_id: 'x' } })).toMatchObject({
      type: 'Rejected',
      decision: 'deny',
      status: 400,
      error: 'reserved_metadata_key',
    });
  });
});
