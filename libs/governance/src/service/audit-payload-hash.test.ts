import { describe, expect, it } from 'vitest';
import { auditPayloadHash } from './audit-payload-hash.js';
import { type AuditRequest } from '../wire/wire-types.js';

const base: AuditRequest = { evaluation_id: 'e1', status: 'success' };
const same = (a: AuditRequest, b: AuditRequest) => auditPayloadHash(a) === auditPayloadHash(b);

describe('the /audit payload hash', () => {
  it('an omitted optional field and the same field as null are one payload', () => {
    for (const field of ['error', 'duration_ms', 'result', 'actual_amount'] as const) {
      expect(same(base, { ...base, [field]: null } as AuditRequest), field).toBe(true);
    }
    expect(same(base, { ...base, evidence: [] })).toBe(true);
  });

  it('evidence is a set: order and omitted defaults do not matter, content does', () => {
    const a = { evidence_key: 'a', evidence_data: 1 };
    const b = { evidence_key: 'b', evidence_data: null };
    expect(
      same({ ...base, evidence: [a, b] }, { ...base, evidence: [{ ...b, evidence_data: undefined }, a] }),
    ).toBe(true);
    expect(same({ ...base, evidence: [a] }, { ...base, evidence: [{ ...a, ttl_seconds: 60 }] })).toBe(false);
    expect(same({ ...base, evidence: [a] }, { ...base, evidence: [{ ...a, evidence_data: 2 }] })).toBe(false);
  });

  it('every field that says what happened counts; the evaluation id does not', () => {
    expect(same(base, { ...base, evaluation_id: 'e2' })).toBe(true);
    expect(same(base, { ...base, status: 'error' })).toBe(false);
    expect(same(base, { ...base, error: 'x' })).toBe(false);
    expect(same(base, { ...base, duration_ms: 5 })).toBe(false);
    expect(same(base, { ...base, result: { ok: true } })).toBe(false);
    expect(same(base, { ...base, actual_amount: 0 })).toBe(false);
    expect(same({ ...base, result: { a: 1, b: 2 } }, { ...base, result: { b: 2, a: 1 } })).toBe(true);
  });
});
