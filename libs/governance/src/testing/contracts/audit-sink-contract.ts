/**
 * The AuditSink contract: a record appended is in the trail exactly as given — at once when
 * `immediate`, once the sink has settled when `buffered` — and an id written twice keeps its first record.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AuditRecord } from '../../stores/audit-record.js';
import { type AuditSink } from '../../stores/audit-sink.js';
import { subjectPerCase, type ContractSubject } from './contract-subject.js';

export interface AuditSinkSubject extends ContractSubject<AuditSink> {
  /** The record the trail holds under this id. */
  read(id: string): Promise<AuditRecord | undefined>;
  /** Waits until buffered records are stored (a flush); absent for a sink that buffers nothing. */
  settle?(): Promise<void>;
}

/** A record with every column set; ids are UUIDs, as a database trail requires. */
export const auditRecord = (overrides: Partial<AuditRecord> = {}): AuditRecord => ({
  id: randomUUID(),
  timestamp: '2026-01-01T00:00:00.000Z',
  sessionId: 's1',
  agentId: 'agent-7',
  toolName: 'pay',
  toolInput: { amount: 12.5, note: 'quote "x" \\ y' },
  policyDecision: 'allow',
  blockReason: null,
  matchedRule: 'pay',
  evidenceChain: { budgets: [{ name: 'payments', kind: 'spend' }] },
  approvalStatus: null,
  approvedBy: null,
  upstreamResponse: 'a bare JSON string',
  upstreamError: null,
  upstreamHttpStatus: null,
  upstreamLatencyMs: 12.25,
  totalDurationMs: 0,
  approvalWaitMs: 0,
  proxyComputeMs: 0,
  flaggedDestructive: false,
  dryRun: false,
  createdAt: '2026-01-01T00:00:01.000Z',
  environment: 'test',
  matchedRuleIndex: 0,
  recordKind: 'tool_call',
  origin: 'sdk',
  metadata: { sender_id: 'U7' },
  sessionSource: 'sideband',
  protocolVersion: null,
  ...overrides,
});

/** The contract's cases, each run against the current case's subject. */
const CASES: Readonly<Record<string, (subject: () => AuditSinkSubject) => Promise<void>>> = {
  'holds an immediate record, every column as given, once append resolves': async (subject) => {
    const blocked = auditRecord({
      policyDecision: 'deny',
      blockReason: 'policy_denied',
      upstreamResponse: null,
    });
    await subject().store.append(blocked, 'immediate');
    expect(await subject().read(blocked.id)).toStrictEqual(blocked);
    const nested = auditRecord({
      upstreamResponse: { nested: [1, { ok: true }] },
      metadata: null,
      evidenceChain: null,
      sessionId: null,
      agentId: null,
    });
    await subject().store.append(nested, 'immediate');
    expect(await subject().read(nested.id)).toStrictEqual(nested);
    expect(await subject().read(randomUUID())).toBeUndefined();
  },
  'holds buffered records once the sink has settled': async (subject) => {
    const records = Array.from({ length: 3 }, (_, i) => auditRecord({ upstreamLatencyMs: i }));
    for (const record of records) await subject().store.append(record, 'buffered');
    await subject().settle?.();
    for (const record of records) expect(await subject().read(record.id)).toStrictEqual(record);
  },
  'keeps the first record when an id is written twice (a retried /audit after a crash)': async (subject) => {
    const first = auditRecord({ upstreamLatencyMs: 1 });
    await subject().store.append(first, 'immediate');
    await subject().store.append({ ...first, upstreamLatencyMs: 2 }, 'immediate');
    expect((await subject().read(first.id))?.upstreamLatencyMs).toBe(1);
  },
};

export function describeAuditSinkContract(name: string, makeSink: () => Promise<AuditSinkSubject>): void {
  describe(`${name}: AuditSink contract`, () => {
    const subject = subjectPerCase(makeSink);
    for (const [title, run] of Object.entries(CASES)) it(title, () => run(subject));
  });
}
