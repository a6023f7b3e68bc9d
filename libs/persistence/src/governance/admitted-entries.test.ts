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
  it('keeps entries with or without holds, never those waiting on a ticket or already latched', () => {
    const kept = new AdmittedEntries();
    kept.keep(entry('plain'));
    kept.keep(entry('held', { reservationId: 'r' }));
    kept.keep(entry('ticket', { approvalTicketId: 't' }));
    kept.keep(entry('latched', { commit: { payloadHash: 'h', evidenceChain: null } }));
    expect(['plain', 'held', 'ticket', 'latched'].map((id) => kept.take(id, 0)?.evaluationId)).toEqual([
      'plain',
      'held',
      undefined,
      undefined,
    ]);
  });

  it('hands a copy out once: a retry reads the database', () => {
    const kept = new AdmittedEntries();
    kept.keep(entry('once', { reservationId: 'r' }));
    expect(kept.take('once', 0)?.evaluationId).toBe('once');
    expect(kept.take('once', 0)).toBeUndefined();
    expect(kept.size).toBe(0);
  });

  it('answers nothing at the TTL (999 yes, 1,000 no), after forget, and drops the oldest beyond its size', () => {
    const kept = new AdmittedEntries(2);
    kept.keep(entry('a'));
    expect(kept.take('a', 999)).toBeDefined();
    kept.keep(entry('a'));
    expect(kept.take('a', 1_000)).toBeUndefined();
    kept.keep(entry('a'));
    kept.forget('a');
    expect(kept.take('a', 0)).toBeUndefined();
    kept.keep(entry('b'));
    kept.keep(entry('c'));
    kept.keep(entry('d'));
    expect(kept.size).toBe(2);
    expect(kept.take('b', 0)).toBeUndefined();
    kept.prune(1_000);
    expect(kept.size).toBe(0);
  });
});
