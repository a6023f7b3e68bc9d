/**
 * The adapter API's engine, framework-free: evaluate → (resolve) → audit, install scans and the
 * expiry sweep over injected stores. Each method returns `{ status, body }` for the HTTP layer.
 */
import { newId, storableJson, storableText } from '@helios/core';
import { resolveGovernanceLimits, type GovernanceLimits } from '../config/governance-limits.js';
import { type CompiledPolicy } from '../engine/compiled-policy.js';
import { systemClock, type Clock } from '../stores/clock.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { resolveApproval } from './approval-flow.js';
import { auditCall } from './audit-flow.js';
import { evaluateCall } from './evaluate-flow.js';
import { putEvidence } from './evidence-flow.js';
import { expireDue } from './expiry.js';
import { installScan } from './install-scan-flow.js';
import { putContext, sessionState } from './session-flow.js';
import {
  type AuditResult,
  type ContextResult,
  type EvaluateResult,
  type EvidenceResult,
  type InstallScanResult,
  type ResolveApprovalResult,
  type SessionStateResult,
} from './results.js';
import { type GovernanceStores, type ServiceContext } from './service-context.js';
import {
  type AuditRequest,
  type ContextRequest,
  type EvaluateRequest,
  type EvidenceRequest,
  type InstallScanRequest,
  type ResolveApprovalRequest,
} from './wire-types.js';

export interface GovernanceServiceOptions {
  readonly policy: CompiledPolicy;
  readonly stores: GovernanceStores;
  readonly clock?: Clock;
  /** Ids for evaluations, audit records and tickets (default: time-ordered UUIDv7). */
  readonly newId?: () => string;
  /** Bounded-growth caps; unset ones take the seed's defaults. */
  readonly limits?: Partial<GovernanceLimits>;
}

/**
 * The engine's entry points. Every request's strings reach the flows storable: U+0000 and unpaired
 * surrogates, which PostgreSQL cannot hold, are U+FFFD before anything decides on or stores them, so each
 * store, and every door (the adapter listener, in-process callers), sees the same value.
 */
export class GovernanceService {
  private constructor(private readonly context: ServiceContext) {}

  /** Validates the caps and reconciles budget epochs with the limit store before serving. */
  static async create(options: GovernanceServiceOptions): Promise<GovernanceService> {
    const limits = resolveGovernanceLimits(options.limits);
    const clock = options.clock ?? systemClock;
    const budgetEpochs = await options.stores.limits.reconcileBudgets(
      options.policy.budgets.map((budget) => ({ name: budget.name, identity: budget.identity })),
    );
    return new GovernanceService({
      policy: options.policy,
      budgetEpochs,
      stores: options.stores,
      clock,
      newId: options.newId ?? (() => newId(clock.now())),
      limits,
      backlogCaps: Object.freeze({
        maxCount: limits.maxPendingEvaluations,
        maxBytes: limits.maxPendingBytes,
      }),
      locks: new KeyedMutex(),
    });
  }

  get limits(): GovernanceLimits {
    return this.context.limits;
  }

  evaluate(request: EvaluateRequest): Promise<EvaluateResult> {
    return evaluateCall(this.context, storableJson(request));
  }

  audit(request: AuditRequest): Promise<AuditResult> {
    return auditCall(this.context, storableJson(request));
  }

  resolveApproval(ticketId: string, request: ResolveApprovalRequest): Promise<ResolveApprovalResult> {
    return resolveApproval(this.context, storableText(ticketId), storableJson(request));
  }

  installScan(request: InstallScanRequest): Promise<InstallScanResult> {
    return installScan(this.context, storableJson(request));
  }

  /** `POST /evidence`: stores grounding data under an allowlisted key for a session. */
  putEvidence(request: EvidenceRequest): Promise<EvidenceResult> {
    return putEvidence(this.context, storableJson(request));
  }

  /** `POST /context`: sets one context value of a session (last write wins). */
  putContext(request: ContextRequest): Promise<ContextResult> {
    return putContext(this.context, storableJson(request));
  }

  /** `GET /session/:session_id/state`: unexpired evidence, context and completed tools of a session. */
  sessionState(sessionId: string): Promise<SessionStateResult> {
    return sessionState(this.context, storableText(sessionId));
  }

  /** Expires evaluations past their TTL and forgets old tombstones; run it periodically. Returns how many expired. */
  sweep(): Promise<number> {
    return expireDue(this.context);
  }
}
