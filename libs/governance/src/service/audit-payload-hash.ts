/** The /audit idempotency key: a hash of the canonical payload, evidence order-independent. */
import { hash } from 'node:crypto';
import { canonicalJson } from '../util/canonical-json.js';
import { type AuditRequest } from '../wire/wire-types.js';

export function auditPayloadHash(request: AuditRequest): string {
  const evidence = request.evidence?.map((entry) => canonicalJson(entry)).sort();
  // One-shot: no Hash object per call (a third of createHash's cost on this hot path).
  return hash('sha256', canonicalJson({ ...request, evidence }), 'hex');
}
