/** The /audit idempotency key: a hash of the canonical payload, evidence order-independent. */
import { createHash } from 'node:crypto';
import { canonicalJson } from '../util/canonical-json.js';
import { type AuditRequest } from './wire-types.js';

export function auditPayloadHash(request: AuditRequest): string {
  const evidence = request.evidence?.map((entry) => canonicalJson(entry)).sort();
  return createHash('sha256')
    .update(canonicalJson({ ...request, evidence }))
    .digest('hex');
}
