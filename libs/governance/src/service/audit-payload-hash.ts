/**
 * The /audit idempotency key: a hash of the payload's meaning, as the reference computes it. Only the
 * fields that say what happened count (not `evaluation_id`, nor keys the schema ignores); an omitted
 * optional field and the same field sent as null are one payload; evidence is compared as a set of
 * entries with their defaults filled (none and `[]` alike). A retry that re-measured `duration_ms` is a
 * different payload: an adapter bug, rightly a conflict.
 */
import { hash } from 'node:crypto';
import { canonicalJson } from '../util/canonical-json.js';
import { type AuditRequest } from '../wire/wire-types.js';

export function auditPayloadHash(request: AuditRequest): string {
  const semantic = {
    status: request.status,
    error: request.error ?? null,
    duration_ms: request.duration_ms ?? null,
    result: request.result ?? null,
    actual_amount: request.actual_amount ?? null,
    evidence: canonicalEvidence(request.evidence),
  };
  // One-shot: no Hash object per call (a third of createHash's cost on this hot path).
  return hash('sha256', canonicalJson(semantic), 'hex');
}

function canonicalEvidence(evidence: AuditRequest['evidence']): string[] | null {
  if (evidence === undefined || evidence === null || evidence.length === 0) return null;
  return evidence
    .map((entry) =>
      canonicalJson({
        evidence_key: entry.evidence_key,
        evidence_data: entry.evidence_data ?? null,
        ttl_seconds: entry.ttl_seconds ?? null,
      }),
    )
    .sort();
}
