/** Evidence written through /audit: allowlisted, on success, once, bound to the evaluation's session. */
import { describe, expect, it } from 'vitest';
import { decidedBody as body, harness } from '../testing/service-harness.js';

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
      reason: 'Required evidence not satisfied: recipient',
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
      type: 'Finalized',
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
      ).type,
    ).toBe('Replayed');
    expect(
      await h.service.audit({
        evaluation_id: lookup.evaluation_id,
        status: 'success',
        evidence: evidence.slice(1),
      }),
    ).toMatchObject({ type: 'Error', body: { error: 'evaluation_conflict' } });
    expect(h.evidence.read('s', 'recipient')).toEqual({ to: 'a@b.c' });
    expect(body(await h.service.evaluate({ tool: { name: 'send' }, session_id: 's' })).decision).toBe(
      'allow',
    );
    h.clock.advance(60_000);
    expect(body(await h.service.evaluate({ tool: { name: 'send' }, session_id: 's' }))).toMatchObject({
      decision: 'deny',
      reason: 'Required evidence not satisfied: recipient',
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
    expect(missing.reason).toBe('Required tool calls not completed: lookup');
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
