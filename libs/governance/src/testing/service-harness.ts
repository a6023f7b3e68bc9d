/** Test harness: a service over in-memory stores with a manual clock and sequential ids (`id-0001`, …). */
import { loadPolicy } from '../engine/load-policy.js';
import { type GovernanceLimits } from '../config/governance-limits.js';
import { GovernanceService } from '../service/governance-service.js';
import { MemoryApprovalTicketStore } from '../stores/memory/memory-approval-ticket-store.js';
import { MemoryAuditSink } from '../stores/memory/memory-audit-sink.js';
import { MemoryEvidenceStore } from '../stores/memory/memory-evidence-store.js';
import { MemoryLimitStore } from '../stores/memory/memory-limit-store.js';
import { MemoryPendingEvaluationStore } from '../stores/memory/memory-pending-evaluation-store.js';
import { MemoryToolBaselineStore } from '../stores/memory/memory-tool-baseline-store.js';
import { type EvaluateResult } from '../service/results.js';
import { type EvaluateDecisionBody } from '../wire/wire-types.js';

export class ManualClock {
  constructor(public ms = Date.UTC(2026, 0, 1)) {}
  now(): number {
    return this.ms;
  }
  advance(ms: number): void {
    this.ms += ms;
  }
}

export interface Harness {
  readonly service: GovernanceService;
  readonly clock: ManualClock;
  readonly limits: MemoryLimitStore;
  readonly pending: MemoryPendingEvaluationStore;
  readonly approvals: MemoryApprovalTicketStore;
  readonly evidence: MemoryEvidenceStore;
  readonly audit: MemoryAuditSink;
}

/** A policy that allows every call and feeds `budgets` (YAML list items under `budgets:`). */
export function allowAllPolicy(budgets: string): string {
  return `
version: '1'
sdk: { enabled: true }
policies:
  rules:
    - { name: anything, match: {}, action: allow }
budgets:
${budgets}`;
}

export async function harness(
  yaml: string,
  options: { limits?: Partial<GovernanceLimits>; evidence?: boolean; limitStore?: MemoryLimitStore } = {},
): Promise<Harness> {
  const clock = new ManualClock();
  const limits = options.limitStore ?? new MemoryLimitStore();
  const pending = new MemoryPendingEvaluationStore();
  const approvals = new MemoryApprovalTicketStore();
  const evidence = new MemoryEvidenceStore();
  const audit = new MemoryAuditSink();
  let counter = 0;
  const service = await GovernanceService.create({
    policy: loadPolicy(yaml, { env: {} }).policy,
    stores: {
      limits,
      pending,
      approvals,
      audit,
      baselines: new MemoryToolBaselineStore(),
      evidence: options.evidence === false ? undefined : evidence,
    },
    clock,
    newId: () => `id-${String((counter += 1)).padStart(4, '0')}`,
    limits: options.limits ?? {},
  });
  return { service, clock, limits, pending, approvals, evidence, audit };
}

/** The body of a decided evaluation; throws (failing the test) on any other result. */
export function decidedBody(result: EvaluateResult): EvaluateDecisionBody {
  if (result.type !== 'Decided') throw new Error(`expected a decision, got ${JSON.stringify(result)}`);
  return result.body;
}
