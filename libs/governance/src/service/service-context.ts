/** What every flow of the service shares: the policy, the stores, time, ids and caps. */
import { type GovernanceLimits } from '../config/governance-limits.js';
import { type CompiledPolicy } from '../engine/compiled-policy.js';
import { type ApprovalTicketStore } from '../stores/approval-ticket-store.js';
import { type AuditSink } from '../stores/audit-sink.js';
import { type Clock } from '../stores/clock.js';
import { type EvidenceStore, type SessionStoreCaps } from '../stores/evidence-store.js';
import { type LimitStore } from '../stores/limit-store.js';
import { type BacklogCaps, type PendingEvaluationStore } from '../stores/pending-evaluation-store.js';
import { type ToolBaselineStore } from '../stores/tool-baseline-store.js';
import { type IsoTimeCache } from '../util/iso-time-cache.js';
import { type KeyedMutex } from '../util/keyed-mutex.js';
import { type StringPool } from '../util/string-pool.js';
import { type AuditRecord } from '../stores/audit-record.js';
import { isEnforcement } from './record-builder.js';

export interface GovernanceStores {
  readonly limits: LimitStore;
  readonly pending: PendingEvaluationStore;
  readonly approvals: ApprovalTicketStore;
  readonly baselines: ToolBaselineStore;
  readonly audit: AuditSink;
  /** Optional: without it grounded rules are not checked and /audit evidence reports `evidence_unavailable`. */
  readonly evidence?: EvidenceStore | undefined;
}

export interface ServiceContext {
  readonly policy: CompiledPolicy;
  readonly budgetEpochs: ReadonlyMap<string, number>;
  readonly stores: GovernanceStores;
  readonly clock: Clock;
  readonly newId: () => string;
  readonly limits: GovernanceLimits;
  /** The backlog caps of `limits`, made once. */
  readonly backlogCaps: BacklogCaps;
  readonly locks: KeyedMutex;
  /** Origins, tool names and session ids repeat across calls: pending entries share one copy of each. */
  readonly identifiers: StringPool;
  /** The ISO text of the last millisecond asked for: many calls share one under load. */
  readonly isoTime: IsoTimeCache;
}

/**
 * Hands a finalization's record to the audit sink, unless the pending store writes it itself with
 * the tombstone that follows (then it is durable when finalize/remember resolves).
 */
export async function appendRecord(context: ServiceContext, record: AuditRecord): Promise<void> {
  if (context.stores.pending.writesRecords === true) return;
  await context.stores.audit.append(record, isEnforcement(record) ? 'immediate' : 'buffered');
}

/** Now, as ISO text, from the context's own cache (no state shared between services). */
export function nowIso(context: ServiceContext): string {
  return context.isoTime.format(context.clock.now());
}

/** The session store's caps, from the configured limits. */
export function sessionStoreCaps(context: ServiceContext): SessionStoreCaps {
  return { maxSessions: context.limits.maxSessions, maxBytes: context.limits.maxSessionBytes };
}
