import { type PendingEvaluation } from '@helios/governance';
import { describe, expect, it } from 'vitest';
import { AdmittedEntries } from './admitted-entries.js';

function entry(id: string, extra: Partial<PendingEvaluation> = {}): PendingEvaluation {
  return {
    evaluationId: id,
    expiresAtMs: 1_000,
    reservationId: undefined,
    approvalTicketId: undefined,
    ...extra,
  } as PendingEvaluation;
}

describe('AdmittedEntries', () => {
  it('keeps only entries with nothing to commit', () => {
    const kept = new AdmittedEntries();
    kept.keep(entry('plain'));
    kept.keep(entry('held', { reservationId: 'r' }));
    kept.keep(entry('ticket', { approvalTicketId: 't' }));
    kept.keep(entry('latched', { commit: { payloadHash: 'h', evidenceChain: null } }));
    expect(['plain', 'held', 'ticket', 'latched'].map((id) => kept.find(id, 0)?.evaluationId)).toEqual([
      'plain',
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('answers nothing past the TTL, after forget, and drops the oldest beyond its size', () => {
    const kept = new AdmittedEntries(2);
    kept.keep(entry('a'));
    expect(kept.find('a', 999)).toBeDefined();
    expect(kept.find('a', 1_000)).toBeUndefined();
    kept.forget('a');
    expect(kept.find('a', 0)).toBeUndefined();
    kept.keep(entry('b'));
    kept.keep(entry('c'));
    kept.keep(entry('d'));
    expect(kept.size).toBe(2);
    expect(kept.find('b', 0)).toBeUndefined();
    kept.prune(1_000);
    expect(kept.size).toBe(0);
  });
});
