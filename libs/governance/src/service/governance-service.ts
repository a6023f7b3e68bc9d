/**
 * The adapter API's engine, framework-free: evaluate → (resolve) → audit, install scans and the
 * expiry sweep over injected stores. Each method answers a closed union `{ type, body }` (results.ts)
 * that a transport maps; nothing here knows HTTP.
 */
import { newId, storableJsonWithin, storableText, type FieldError } from '@helios/core';
import { resolveGovernanceLimits, type GovernanceLimits } from '../config/governance-limits.js';
import { type CompiledPolicy } from '../engine/compiled-policy.js';
import { systemClock, type Clock } from '../stores/clock.js';
import { IsoTimeCache } from '../util/iso-time-cache.js';
import { KeyedMutex } from '../util/keyed-mutex.js';
import { StringPool } from '../util/string-pool.js';
import { resolveApproval } from './approval-flow.js';
import { auditCall } from './audit-flow.js';
import { evaluateCall } from './evaluate/evaluate-call.js';
import { putEvidence } from './evidence-flow.js';
import { expireDue, type SweepReport } from './expiry.js';
import { installScan } from './install-scan-flow.js';
import { putContext, sessionState } from './session-flow.js';
import {
  auditIdentifierIssues,
  contextIdentifierIssues,
  evaluateIdentifierIssues,
  evidenceIdentifierIssues,
  installScanIdentifierIssues,
  sessionIdIssues,
  ticketIdIssues,
} from './identifier-checks.js';
import {
  failure,
  type AuditResult,
  type ContextResult,
  type Failure,
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
} from '../wire/wire-types.js';

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
 * store, and every door (the adapter listener, in-process callers), sees the same value. Then every
 * string that becomes a key or an index entry is held to its byte ceiling (`invalid_request`).
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
      identifiers: new StringPool(),
      isoTime: new IsoTimeCache(),
    });
  }

  get limits(): GovernanceLimits {
    return this.context.limits;
  }

  evaluate(request: EvaluateRequest): Promise<EvaluateResult> {
    return this.admit(request, evaluateIdentifierIssues, (storable) => evaluateCall(this.context, storable));
  }

  audit(request: AuditRequest): Promise<AuditResult> {
    return this.admit(request, auditIdentifierIssues, (storable) => auditCall(this.context, storable));
  }

  resolveApproval(ticketId: string, request: ResolveApprovalRequest): Promise<ResolveApprovalResult> {
    const id = storableText(ticketId);
    return this.admit(
      request,
      () => ticketIdIssues(id),
      (storable) => resolveApproval(this.context, id, storable),
    );
  }

  installScan(request: InstallScanRequest): Promise<InstallScanResult> {
    return this.admit(request, installScanIdentifierIssues, (storable) =>
      installScan(this.context, storable),
    );
  }

  /** `POST /evidence`: stores grounding data under an allowlisted key for a session. */
  putEvidence(request: EvidenceRequest): Promise<EvidenceResult> {
    return this.admit(request, evidenceIdentifierIssues, (storable) => putEvidence(this.context, storable));
  }

  /** `POST /context`: sets one context value of a session (last write wins). */
  putContext(request: ContextRequest): Promise<ContextResult> {
    return this.admit(request, contextIdentifierIssues, (storable) => putContext(this.context, storable));
  }

  /** `GET /session/:session_id/state`: unexpired evidence, context and completed tools of a session. */
  sessionState(sessionId: string): Promise<SessionStateResult> {
    const id = storableText(sessionId);
    const issues = sessionIdIssues(id);
    return issues.length > 0 ? invalid(issues) : sessionState(this.context, id);
  }

  /**
   * Expires evaluations past their TTL and forgets old tombstones; run it periodically. Reports how
   * many expired, which were quarantined and how many could not be expired this run.
   */
  sweep(): Promise<SweepReport> {
    return expireDue(this.context);
  }

  /**
   * Every door's first step: the request nests within `maxJsonDepth` (else `json_too_deep`: an
   * in-process caller gets the listener's answer, not a stack overflow), its strings are made storable,
   * then its keys and ids are held to their byte ceilings (`invalid_request`).
   */
  private admit<Request, Result>(
    request: Request,
    identifierIssues: (storable: Request) => FieldError[],
    flow: (storable: Request) => Promise<Result>,
  ): Promise<Result | Failure> {
    const maxDepth = this.context.limits.maxJsonDepth;
    const storable = storableJsonWithin(request, maxDepth);
    if (storable === undefined)
      return Promise.resolve(failure({ error: 'json_too_deep', max_depth: maxDepth }));
    const issues = identifierIssues(storable);
    return issues.length > 0 ? invalid(issues) : flow(storable);
  }
}

function invalid(issues: readonly FieldError[]): Promise<Failure> {
  return Promise.resolve(failure({ error: 'invalid_request', issues }));
}
