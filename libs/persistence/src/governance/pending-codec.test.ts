import { bucketIdOf, type PendingEvaluation, type PlannedCharge } from '@helios/governance';
import { describe, expect, it } from 'vitest';
import { decodePending, encodePending, type EncodedPending } from './pending-codec.js';

const entry: PendingEvaluation = {
  evaluationId: 'e1',
  auditRecordId: 'a1',
  origin: 'sdk',
  agentId: null,
  sessionId: 's1',
  toolName: 'pay',
  toolInputJson: '{"amount":12.5}',
  metadataJson: null,
  action: 'allow',
  matchedRuleName: null,
  matchedRuleIndex: null,
  flaggedDestructive: false,
  reservationId: 'r1',
  charges: [],
  budgetsAtEvaluate: undefined,
  approvalTicketId: undefined,
  timestampIso: '2026-01-01T00:00:00.000Z',
  createdAtMs: 1,
  expiresAtMs: 2,
  bytes: 3,
};

describe('pending codec', () => {
  it('round-trips an entry through its JSON payload', () => {
    const payload = JSON.parse(JSON.stringify(encodePending(entry))) as EncodedPending;
    expect(decodePending(payload, null)).toEqual(entry);
    const latch = { payloadHash: 'h', evidenceChain: null };
    expect(decodePending(payload, latch)).toEqual({ ...entry, commit: latch });
  });

  it('reads a payload written by an earlier version, with argument and metadata objects', () => {
    const { toolInputJson: _input, metadataJson: _metadata, ...rest } = encodePending(entry);
    const legacy = { ...rest, toolInput: { amount: 12.5 }, metadata: { sender_id: 'U7' } };
    const decoded = decodePending(legacy as unknown as EncodedPending, null);
    expect(decoded.toolInputJson).toBe('{"amount":12.5}');
    expect(decoded.metadataJson).toBe('{"sender_id":"U7"}');
    expect(decoded).not.toHaveProperty('toolInput');
  });

  it("leaves a charge's bucket id out of the payload and derives it again when reading", () => {
    const charge: PlannedCharge = {
      id: bucketIdOf('rate', 0, 'tool:pay:rule:0'),
      family: 'rate',
      key: 'tool:pay:rule:0',
      epoch: 0,
      amount: 1n,
      limit: 5n,
      window: { type: 'sliding', ms: 1_000 },
      onBreach: 'refuse',
      senderScoped: false,
      role: 'rate',
      budgetName: undefined,
      currency: undefined,
      breached: false,
    };
    const payload = JSON.parse(
      JSON.stringify(encodePending({ ...entry, charges: [charge] })),
    ) as EncodedPending;
    expect(payload.charges[0]).not.toHaveProperty('id');
    expect(decodePending(payload, null).charges).toStrictEqual([charge]);
  });
});
