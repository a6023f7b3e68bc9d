/**
 * `POST /evidence` (SDK scope): the SDK's way to ground later calls of a session. The key must be named
 * by some rule's `evidence.requires` (an empty allowlist refuses every write), so a client cannot fill
 * the store with data no rule reads.
 */
import { jsonByteLength } from '../util/canonical-json.js';
import { failure, type EvidenceResult } from './results.js';
import { sessionStoreCaps, type ServiceContext } from './service-context.js';
import { type EvidenceRequest } from '../wire/wire-types.js';

const LISTED_KEYS = 20;

export async function putEvidence(
  context: ServiceContext,
  request: EvidenceRequest,
): Promise<EvidenceResult> {
  const { policy, stores, limits } = context;
  if (!policy.evidenceKeys.has(request.evidence_key)) {
    const allowed = [...policy.evidenceKeys].sort();
    return {
      type: 'Refused',
      body: {
        error: 'evidence_key_not_in_policy_allowlist',
        code: 'evidence_key_not_in_policy_allowlist',
        key: request.evidence_key,
        allowed_keys: allowed.slice(0, LISTED_KEYS),
        allowed_key_count: allowed.length,
        truncated: allowed.length > LISTED_KEYS,
      },
    };
  }
  if (jsonByteLength(request.evidence_data ?? null) > limits.maxEvidenceBytes) {
    return failure({ error: 'evidence_too_large' });
  }
  if (stores.evidence === undefined) return failure({ error: 'evidence_unavailable' });
  const outcome = await stores.evidence.put(
    request.session_id,
    {
      key: request.evidence_key,
      data: request.evidence_data,
      toolName: request.tool_name,
      ttlSeconds: request.ttl_seconds,
    },
    context.clock.now(),
    sessionStoreCaps(context),
  );
  if (outcome === 'Closed') return failure({ error: 'sideband_shutting_down' });
  if (outcome === 'CapacityExhausted') return failure({ error: 'session_capacity_exhausted' });
  return { type: 'Stored', body: { ok: true } };
}
