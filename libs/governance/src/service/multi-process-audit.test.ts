import { describe, expect, it } from 'vitest';
import { loadPolicy } from '../engine/load-policy.js';
import { MemoryToolBaselineStore } from '../stores/memory/memory-tool-baseline-store.js';
import { harness } from '../testing/service-harness.js';
import { GovernanceService } from './governance-service.js';

const POLICY = "version: '1'\nsdk: { enabled: true }\n";

/** Two services over the same stores stand for two API processes on one database. */
async function twoProcesses() {
  const h = await harness(POLICY);
  const second = await GovernanceService.create({
    policy: loadPolicy(POLICY, { env: {} }).policy,
    stores: {
      limits: h.limits,
      pending: h.pending,
      approvals: h.approvals,
      audit: h.audit,
      evidence: h.evidence,
      baselines: new MemoryToolBaselineStore(),
    },
    clock: h.clock,
  });
  return { h, first: h.service, second };
}

describe('one evaluation audited by two processes at once', () => {
  it('finalizes once: the same payload replays, a different one conflicts', async () => {
    const { h, first, second } = await twoProcesses();
    const evaluated = await first.evaluate({ tool: { name: 't' } });
    if (evaluated.type !== 'Decided') throw new Error('expected a decision');
    const id = evaluated.body.evaluation_id;

    const same = await Promise.all([
      first.audit({ evaluation_id: id, status: 'success', duration_ms: 1 }),
      second.audit({ evaluation_id: id, status: 'success', duration_ms: 1 }),
    ]);
    expect(same.map((r) => r.type).sort()).toEqual(['Finalized', 'Replayed']);

    const again = await first.evaluate({ tool: { name: 't' } });
    if (again.type !== 'Decided') throw new Error('expected a decision');
    const other = await Promise.all([
      first.audit({ evaluation_id: again.body.evaluation_id, status: 'success', duration_ms: 1 }),
      second.audit({ evaluation_id: again.body.evaluation_id, status: 'success', duration_ms: 2 }),
    ]);
    expect(other.map((r) => r.type).sort()).toEqual(['Error', 'Finalized']);
    expect(other.find((r) => r.type === 'Error')?.body).toEqual({ error: 'evaluation_conflict' });
    // The charges of each evaluation were committed once, whichever process won.
    expect(h.pending.backlog().count).toBe(0);
  });
});
