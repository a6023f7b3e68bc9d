/**
 * The SDK's other session routes: `POST /context` writes one key/value of a session's context, and
 * `GET /session/:session_id/state` reads back what the session store holds. Context is free-form (no
 * policy allowlist, no rule reads it), so only the caps bound it: value size, sessions, total bytes.
 */
import { jsonByteLength } from '../util/canonical-json.js';
import { failure, type ContextResult, type SessionStateResult } from './results.js';
import { sessionStoreCaps, type ServiceContext } from './service-context.js';
import { type ContextRequest, type SessionEvidenceEntry } from '../wire/wire-types.js';

export async function putContext(context: ServiceContext, request: ContextRequest): Promise<ContextResult> {
  const { stores, limits } = context;
  if (jsonByteLength(request.value ?? null) > limits.maxEvidenceBytes) {
    return failure({ error: 'context_too_large' });
  }
  if (stores.evidence === undefined) return failure({ error: 'evidence_unavailable' });
  const outcome = await stores.evidence.putContext(
    request.session_id,
    request.key,
    request.value,
    context.clock.now(),
    sessionStoreCaps(context),
  );
  if (outcome === 'Closed') return failure({ error: 'sideband_shutting_down' });
  if (outcome === 'CapacityExhausted') return failure({ error: 'session_capacity_exhausted' });
  return { type: 'Stored', body: { ok: true } };
}

/** Unknown sessions read as empty state, not an error: "nothing recorded yet" is a valid answer. */
export async function sessionState(context: ServiceContext, sessionId: string): Promise<SessionStateResult> {
  const { evidence } = context.stores;
  if (evidence === undefined) return failure({ error: 'evidence_unavailable' });
  const state = await evidence.sessionState(sessionId, context.clock.now());
  const iso = (ms: number) => context.isoTime.format(ms);
  const evidenceByKey: Record<string, SessionEvidenceEntry> = {};
  for (const entry of state.evidence) {
    // Defined, not assigned: an evidence key "__proto__" must stay data, not replace the prototype.
    Object.defineProperty(evidenceByKey, entry.key, {
      value: {
        evidence_key: entry.key,
        data: entry.data,
        tool_name: entry.toolName,
        timestamp: iso(entry.writtenAtMs),
        expires_at: Number.isFinite(entry.expiresAtMs) ? iso(entry.expiresAtMs) : null,
      },
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return {
    type: 'State',
    body: {
      session_id: sessionId,
      evidence: evidenceByKey,
      context: state.context,
      completed_tools: state.completedTools.map((tool) => ({
        tool_name: tool.toolName,
        timestamp: iso(tool.lastCallAtMs),
        succeeded: tool.succeeded,
      })),
    },
  };
}
