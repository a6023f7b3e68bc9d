/**
 * POST /evaluate: size and cardinality gates → drift baseline update → decide() → rule limit and
 * budget gate → either a terminal record now (deny, rate_limited, spend_limited, budget_exceeded,
 * dry_run) or a pending entry (+ a native ticket for require_approval) that /audit finalizes.
 * Holds on every bucket the call would charge are placed atomically here, so concurrent calls
 * cannot both take the last slot; /audit turns them into charges only if the call ran.
 */
import { type Mutable } from '@helios/core';
import { decide, normaliseSessionId, type PolicyDecision } from '../engine/decide.js';
import { effectiveAnnotations, type ToolAnnotations } from '../engine/annotations.js';
import { diffDefinitions } from '../drift/diff-definitions.js';
import { type ToolDefinition } from '../stores/tool-baseline-store.js';
import { type BucketCheck, type BucketSnapshot } from '../stores/limit-store.js';
import { type BreachedBudget } from '../stores/approval-ticket-store.js';
import { identityJsonBytes, jsonByteLength } from '../util/canonical-json.js';
import { fromMicroUnits } from '../util/money.js';
import { type BlockReason } from './audit-record.js';
import {
  budgetApprovalFeedback,
  budgetDeniedFeedback,
  feedbackFor,
  limitFeedback,
  ruleFeedback,
  SESSION_UNRESOLVED_REASON,
} from './feedback.js';
import {
  planBudgets,
  planRuleLimit,
  type BudgetPlan,
  type CallIdentity,
  type PlannedCharge,
  type RuleLimitPlan,
} from './limit-planning.js';
import { buildRecord, parseObject } from './record-builder.js';
import { failure, type EvaluateResult } from './results.js';
import { appendRecord, nowIso, type ServiceContext } from './service-context.js';
import { budgetBlock, invalidSpendBlock, rateBlock, spendBlock } from './wire-blocks.js';
import {
  type BudgetBlock,
  type EvaluateRequest,
  type EvaluateResponseBody,
  type FeedbackBlock,
  type LimitsBlock,
  type WireDecision,
} from './wire-types.js';

export const DEFAULT_ORIGIN = 'sideband';
/** `[]`: what an empty list counts against the backlog byte cap. */
const EMPTY_ARRAY_BYTES = 2;

/** The gate's verdict before anything is written. */
interface Verdict {
  readonly wire: WireDecision;
  readonly reason: string;
  readonly feedback: FeedbackBlock | undefined;
  readonly limits: LimitsBlock | undefined;
  readonly blockReason: BlockReason | null;
  readonly dryRun?: EvaluateResponseBody['dry_run'];
  /** Held buckets (pending outcomes only). */
  readonly reservationId?: string;
  readonly charges?: readonly PlannedCharge[];
  readonly breached?: readonly BreachedBudget[];
  readonly budgetBlocks?: readonly BudgetBlock[];
}

export async function evaluateCall(
  context: ServiceContext,
  request: EvaluateRequest,
): Promise<EvaluateResult> {
  const { stores, limits, policy } = context;
  const origin = context.identifiers.intern(request.origin ?? DEFAULT_ORIGIN);
  const metadata = request.metadata ?? null;
  if (metadata !== null && Object.hasOwn(metadata, 'agent_id')) {
    return failure(400, { error: 'reserved_metadata_key', key: 'agent_id' });
  }
  const args = request.arguments;
  // The JSON texts measured here are parsed again below as the stored copies (cheaper than structuredClone).
  const argsJson = JSON.stringify(args ?? {});
  const inputBytes = Buffer.byteLength(argsJson, 'utf8');
  if (inputBytes > limits.maxToolInputBytes) return failure(413, { error: 'tool_input_too_large' });
  const metadataJson = metadata === null ? '{}' : JSON.stringify(metadata);
  const metadataBytes = Buffer.byteLength(metadataJson, 'utf8');
  if (metadataBytes > limits.maxMetadataBytes) return failure(413, { error: 'metadata_too_large' });

  const toolName = context.identifiers.intern(request.tool.name);
  // Stores may answer synchronously (the in-memory ones do): awaited only when they return a promise.
  const observing = stores.baselines.observe(origin, toolName, toolDefinition(request), limits);
  const observed = observing instanceof Promise ? await observing : observing;
  if (observed.type === 'origin_limit') return failure(400, { error: 'origin_limit_exceeded' });
  if (observed.type === 'tool_limit') return failure(400, { error: 'tool_baseline_limit' });
  if (observed.type === 'definition_too_large') return failure(413, { error: 'tool_definition_too_large' });

  const agentId = request.agent_id ?? null;
  const entryBytes =
    inputBytes + metadataBytes + identityJsonBytes(toolName, agentId, request.session_id ?? null, origin);
  const caps = context.backlogCaps;
  const checking = stores.pending.hasRoom(entryBytes, caps);
  if (!(checking instanceof Promise ? await checking : checking))
    return failure(503, { error: 'evaluation_backlog_full' });

  const now = context.clock.now();
  const normalisedSession = normaliseSessionId(request.session_id);
  const sessionId =
    normalisedSession === undefined ? undefined : context.identifiers.intern(normalisedSession);
  const grounding = needsGrounding(context, sessionId)
    ? await context.stores.evidence?.grounding(sessionId as string, now)
    : undefined;
  const decision = decide({
    policy,
    toolName,
    args,
    sessionId,
    agentId,
    metadata,
    baselineAnnotations: observed.baseline && annotationsOf(observed.baseline),
    currentAnnotations: observed.current && annotationsOf(observed.current),
    driftChanges:
      observed.baseline && observed.current && diffDefinitions(observed.baseline, observed.current),
    grounding,
  });
  const senderId = typeof metadata?.['sender_id'] === 'string' ? metadata['sender_id'] : undefined;
  const call: CallIdentity = { toolName, args, sessionId, senderId };
  const evaluationId = context.newId();
  const judged = decision.isDryRun
    ? simulate(context, decision, call)
    : decision.action === 'deny'
      ? denied(decision)
      : gate(context, decision, call, evaluationId, now);
  // Most calls touch no counter: their verdict is synchronous and costs no extra tick.
  const verdict = judged instanceof Promise ? await judged : judged;
  if (verdict === 'capacity_exhausted') return failure(503, { error: 'limit_capacity_exhausted' });

  const body: Mutable<EvaluateResponseBody> = {
    evaluation_id: evaluationId,
    decision: verdict.wire,
    reason: verdict.reason,
    matched_rule: decision.matchedRule?.name ?? null,
    matched_rule_index: decision.matchedRule?.index ?? null,
  };
  // Assigned, not spread: four conditional spreads per request were a measurable slow path.
  if (verdict.feedback !== undefined) body.feedback = verdict.feedback;
  if (verdict.limits !== undefined) body.limits = verdict.limits;
  if (verdict.dryRun !== undefined) body.dry_run = verdict.dryRun;
  if (decision.drift !== undefined) body.tool_drift = { changes: decision.drift.changes };
  const auditRecordId = context.newId();
  // A record or ticket gets copies of the caller's objects, parsed from the JSON texts measured above; a
  // pending entry keeps the texts themselves (see PendingEvaluation).
  const common = {
    origin,
    agentId,
    sessionId: sessionId ?? null,
    toolName,
    matchedRule: body.matched_rule,
    matchedRuleIndex: body.matched_rule_index,
    flaggedDestructive: decision.flaggedDestructive,
  };

  if (verdict.wire !== 'allow' && verdict.wire !== 'require_approval') {
    const timestampIso = nowIso(context);
    const record = buildRecord({
      origin,
      agentId,
      sessionId: common.sessionId,
      toolName,
      toolInput: parseObject(argsJson),
      metadata: metadata === null ? null : parseObject(metadataJson),
      matchedRule: common.matchedRule,
      matchedRuleIndex: common.matchedRuleIndex,
      flaggedDestructive: common.flaggedDestructive,
      id: auditRecordId,
      timestampIso,
      createdAtIso: timestampIso,
      environment: policy.environment,
      policyDecision:
        verdict.wire === 'dry_run' && decision.originalAction === 'dry_run' ? 'dry_run' : decision.action,
      blockReason: verdict.blockReason,
      evidenceChain: terminalChain(decision, verdict),
      dryRun: verdict.wire === 'dry_run',
      recordKind: 'tool_call',
    });
    await appendRecord(context, record);
    await stores.pending.remember({
      evaluationId,
      auditRecordId,
      finalizedBy: 'evaluate',
      payloadHash: null,
      expiresAtMs: now + policy.evaluationTtlMs,
      record,
    });
    return { type: 'decided', status: 200, body };
  }

  const ticketId = verdict.wire === 'require_approval' ? context.newId() : undefined;
  const charges = verdict.charges ?? [];
  const budgetsAtEvaluate = charges.some((charge) => charge.role === 'budget')
    ? verdict.budgetBlocks
    : undefined;
  const bytes =
    entryBytes +
    (charges.length === 0
      ? EMPTY_ARRAY_BYTES
      : jsonByteLength(charges.map((c) => [c.key, String(c.amount)]))) +
    (budgetsAtEvaluate === undefined ? EMPTY_ARRAY_BYTES : jsonByteLength(budgetsAtEvaluate));
  // Written out rather than spread from `common`: a spread into this many fields is a slow path in V8.
  const admitting = stores.pending.admit(
    {
      origin,
      agentId,
      sessionId: common.sessionId,
      toolName,
      toolInputJson: argsJson,
      metadataJson: metadata === null ? null : metadataJson,
      matchedRuleIndex: common.matchedRuleIndex,
      flaggedDestructive: common.flaggedDestructive,
      evaluationId,
      auditRecordId,
      matchedRuleName: body.matched_rule,
      action: decision.action,
      reservationId: verdict.reservationId,
      charges,
      budgetsAtEvaluate,
      approvalTicketId: ticketId,
      timestampIso: nowIso(context),
      createdAtMs: now,
      expiresAtMs: now + policy.evaluationTtlMs,
      bytes,
    },
    caps,
  );
  const admitted = admitting instanceof Promise ? await admitting : admitting;
  if (!admitted) {
    if (verdict.reservationId !== undefined) await stores.limits.release(verdict.reservationId);
    return failure(503, { error: 'evaluation_backlog_full' });
  }
  if (ticketId === undefined) return { type: 'decided', status: 200, body };

  // A merged ticket (require_approval rule + breached budgets) times out per the RULE; a budget-only
  // ticket per the first breached budget; both fall back to approval.timeout.
  const budgetOnly = decision.action !== 'require_approval';
  const firstBreached = policy.budgets.find((budget) =>
    verdict.breached?.some((b) => b.name === budget.name),
  );
  const timeoutMs =
    (budgetOnly ? firstBreached?.approvalTimeoutMs : decision.matchedRule?.approvalTimeoutMs) ??
    policy.approvalTimeoutMs;
  await stores.approvals.create({
    id: ticketId,
    evaluationId,
    channelName: `native:${origin}`,
    toolName,
    toolInput: parseObject(argsJson),
    matchedRule: body.matched_rule,
    ruleIndex: body.matched_rule_index,
    sessionId: common.sessionId,
    requestedAtMs: now,
    timeoutAtMs: now + Math.min(timeoutMs, policy.evaluationTtlMs),
    timeoutMs,
    status: 'pending',
    breachedBudgets: verdict.breached && verdict.breached.length > 0 ? verdict.breached : undefined,
  });
  return {
    type: 'decided',
    status: 200,
    body: {
      ...body,
      approval: { id: ticketId, timeout_ms: timeoutMs, resolve_path: `/approval/${ticketId}/resolve` },
    },
  };
}

function toolDefinition(request: EvaluateRequest): ToolDefinition | undefined {
  const tool = request.tool;
  const definition: Record<string, unknown> = { name: tool.name };
  if (tool.description !== undefined) definition['description'] = tool.description;
  if (tool.input_schema !== undefined) definition['inputSchema'] = tool.input_schema;
  if (tool.output_schema !== undefined) definition['outputSchema'] = tool.output_schema;
  if (tool.title !== undefined) definition['title'] = tool.title;
  if (tool.annotations !== undefined) definition['annotations'] = tool.annotations;
  // The baseline store keeps its own copy when the definition is new or changed.
  return Object.keys(definition).length > 1 ? (definition as unknown as ToolDefinition) : undefined;
}

/** Evidence is read only when the policy grounds anything (no await otherwise). */
function needsGrounding(context: ServiceContext, sessionId: string | undefined): boolean {
  const grounded = context.policy.evidenceKeys.size > 0 || context.policy.requiredTools.size > 0;
  return context.stores.evidence !== undefined && sessionId !== undefined && grounded;
}

/** Stored definitions are stable objects (the store copies on change), so their hints are read once. */
const annotationsByDefinition = new WeakMap<ToolDefinition, ToolAnnotations>();

function annotationsOf(definition: ToolDefinition): ToolAnnotations {
  let annotations = annotationsByDefinition.get(definition);
  if (annotations === undefined) {
    annotations = effectiveAnnotations(definition.annotations);
    annotationsByDefinition.set(definition, annotations);
  }
  return annotations;
}

function denied(decision: PolicyDecision): Verdict {
  return {
    wire: 'deny',
    reason: decision.reason,
    feedback: ruleFeedback(decision),
    limits: undefined,
    blockReason: denyReason(decision),
  };
}

/** Precise reasons (the MCP door's vocabulary) rather than the reference sideband's blanket policy_denied. */
function denyReason(decision: PolicyDecision): BlockReason {
  switch (decision.grounding.type) {
    case 'session_required':
      return 'session_unresolved';
    case 'evidence_missing':
      return 'evidence_missing';
    case 'evidence_expired':
      return 'evidence_expired';
    case 'dependency_missing':
      return 'dependency_missing';
    default:
      return decision.drift !== undefined && decision.drift.mode === 'block'
        ? 'tool_definition_drift'
        : 'policy_denied';
  }
}

function sessionUnresolvedEngaged(
  context: ServiceContext,
  rule: RuleLimitPlan,
  budgets: readonly BudgetPlan[],
): boolean {
  if (context.policy.onUnresolvedSession !== 'deny') return false;
  return (rule.type === 'check' && rule.sessionless) || budgets.some((plan) => plan.sessionless);
}

/** Dry-run: the same resolution as a pure simulation; peeks, never holds. */
async function simulate(
  context: ServiceContext,
  decision: PolicyDecision,
  call: CallIdentity,
): Promise<Verdict> {
  const evidenceSatisfied = !decision.evidenceBlocked;
  const base = {
    wire: 'dry_run' as const,
    reason: decision.reason,
    feedback: feedbackFor('dry_run', decision),
    blockReason: null,
  };
  if (decision.action === 'deny') {
    return {
      ...base,
      limits: undefined,
      dryRun: { would_forward: false, evidence_satisfied: evidenceSatisfied, limits_ok: true },
    };
  }
  const rulePlan = planRuleLimit(decision.matchedRule, call);
  const budgets = planBudgets(context.policy, call, context.budgetEpochs);
  const checks = [
    ...(rulePlan.type === 'check' ? [rulePlan.charge] : []),
    ...budgets.map((plan) => plan.charge),
  ];
  const snapshots = checks.length === 0 ? [] : await context.stores.limits.peek(checks, context.clock.now());
  const ruleSnapshot = rulePlan.type === 'check' ? snapshots[0] : undefined;
  const budgetSnapshots = rulePlan.type === 'check' ? snapshots.slice(1) : snapshots;
  const ruleOk = rulePlan.type === 'none' || (rulePlan.type === 'check' && ruleSnapshot?.allowed === true);
  const budgetBlocks = budgets.map((plan, i) =>
    budgetBlock(plan.budget, plan.amount, snapshotAt(budgetSnapshots, i)),
  );
  const budgetsOk = budgetBlocks.every((block) => block.allowed);
  const unresolved = sessionUnresolvedEngaged(context, rulePlan, budgets);
  const limitsOk = ruleOk && budgetsOk && !unresolved;
  const forwards =
    decision.action === 'allow' || decision.action === 'rate_limit' || decision.action === 'spend_limit';
  return {
    ...base,
    limits: limitsBlock(rulePlan, ruleSnapshot, budgetBlocks),
    dryRun: {
      would_forward: forwards && limitsOk,
      evidence_satisfied: evidenceSatisfied,
      limits_ok: limitsOk,
      ...(unresolved ? { session_unresolved: true as const } : {}),
    },
  };
}

/** The real gate for calls that could execute: rule limit and budgets, held atomically. */
function gate(
  context: ServiceContext,
  decision: PolicyDecision,
  call: CallIdentity,
  evaluationId: string,
  nowMs: number,
): Verdict | Promise<Verdict | 'capacity_exhausted'> {
  const rulePlan = planRuleLimit(decision.matchedRule, call);
  if (rulePlan.type === 'invalid_amount') {
    return {
      wire: 'spend_limited',
      reason: `Spend amount at "${rulePlan.limit.fieldText}" is missing or not a non-negative finite number`,
      feedback: limitFeedback(decision, rulePlan.limit, true),
      limits: { spend: invalidSpendBlock(rulePlan.limit) },
      blockReason: 'spend_limited',
    };
  }
  const budgets = planBudgets(context.policy, call, context.budgetEpochs);
  if (sessionUnresolvedEngaged(context, rulePlan, budgets)) {
    return {
      wire: 'deny',
      reason: SESSION_UNRESOLVED_REASON,
      feedback: {
        message: SESSION_UNRESOLVED_REASON,
        suggestion: 'Send a session_id with the call (session.on_unresolved: deny).',
      },
      limits: undefined,
      blockReason: 'session_unresolved',
    };
  }
  if (rulePlan.type === 'none' && budgets.length === 0) return unmetered(decision);
  const ruleChecks = rulePlan.type === 'check' ? [rulePlan.charge] : [];
  const checks = [...ruleChecks, ...budgets.map((plan) => plan.charge)];
  return holdCounters(context, decision, rulePlan, budgets, ruleChecks, checks, evaluationId, nowMs);
}

async function holdCounters(
  context: ServiceContext,
  decision: PolicyDecision,
  rulePlan: RuleLimitPlan,
  budgets: readonly BudgetPlan[],
  ruleChecks: readonly BucketCheck[],
  checks: readonly BucketCheck[],
  evaluationId: string,
  nowMs: number,
): Promise<Verdict | 'capacity_exhausted'> {
  const invalid = budgets.filter((plan) => plan.amount === undefined);
  if (invalid.length > 0) {
    // An unreadable amount fails closed whatever on_exceed says; report the real pots.
    const snapshots = await context.stores.limits.peek(checks, nowMs);
    const ruleBlocked = ruleChecks.length > 0 && snapshots[0]?.allowed === false;
    if (ruleBlocked) return ruleLimited(decision, rulePlan, snapshotAt(snapshots, 0));
    return budgetExceeded(decision, budgets, snapshots.slice(ruleChecks.length));
  }

  const reservationId = evaluationId;
  const outcome = await context.stores.limits.reserve(
    {
      reservationId,
      checks,
      expiresAtMs: nowMs + context.policy.evaluationTtlMs,
      maxSenderKeys: context.limits.maxSenderKeys,
    },
    nowMs,
  );
  if (outcome.type === 'capacity_exhausted') return 'capacity_exhausted';
  const ruleSnapshot = ruleChecks.length > 0 ? outcome.snapshots[0] : undefined;
  const budgetSnapshots = outcome.snapshots.slice(ruleChecks.length);
  if (outcome.type === 'refused') {
    if (ruleSnapshot?.allowed === false) return ruleLimited(decision, rulePlan, ruleSnapshot);
    return budgetExceeded(decision, budgets, budgetSnapshots);
  }
  return pass(decision, budgets, budgetSnapshots, reservationId, rulePlan, ruleSnapshot);
}

function ruleLimited(decision: PolicyDecision, rulePlan: RuleLimitPlan, snapshot: BucketSnapshot): Verdict {
  const rate = rulePlan.type === 'check' && rulePlan.limit.type === 'rate';
  return {
    wire: rate ? 'rate_limited' : 'spend_limited',
    reason: rate ? `Rate limit reached: ${decision.reason}` : `Spend limit reached: ${decision.reason}`,
    feedback:
      rulePlan.type === 'check' ? limitFeedback(decision, rulePlan.limit, false) : ruleFeedback(decision),
    limits: limitsBlock(rulePlan, snapshot, undefined),
    blockReason: rate ? 'rate_limited' : 'spend_limited',
  };
}

function budgetExceeded(
  decision: PolicyDecision,
  budgets: readonly BudgetPlan[],
  snapshots: readonly BucketSnapshot[],
): Verdict {
  const blocks = budgets.map((plan, i) => budgetBlock(plan.budget, plan.amount, snapshotAt(snapshots, i)));
  const invalid = blocks.filter((block) => block.reason === 'invalid_amount').map((block) => block.name);
  const breached = blocks
    .filter((block) => !block.allowed && block.reason === undefined)
    .map((block) => block.name);
  const feedback = budgetDeniedFeedback(invalid, breached);
  return {
    wire: 'budget_exceeded',
    reason: feedback.message,
    feedback,
    limits: { budgets: blocks },
    blockReason: 'budget_exceeded',
  };
}

const NO_CHARGES: readonly PlannedCharge[] = Object.freeze([]);
const NO_BREACHES: readonly BreachedBudget[] = Object.freeze([]);
const NO_BUDGET_BLOCKS: readonly BudgetBlock[] = Object.freeze([]);

/** No rule limit, no budget: what `pass` gives for that case, without its per-call arrays (the hot path). */
function unmetered(decision: PolicyDecision): Verdict {
  const wire: WireDecision = decision.action === 'require_approval' ? 'require_approval' : 'allow';
  return {
    wire,
    reason: decision.reason,
    feedback: feedbackFor(wire, decision),
    limits: undefined,
    blockReason: null,
    charges: NO_CHARGES,
    breached: NO_BREACHES,
    budgetBlocks: NO_BUDGET_BLOCKS,
  };
}

/** Everything held: allow, or require_approval when a rule asks or break-glass budgets breached. */
function pass(
  decision: PolicyDecision,
  budgets: readonly BudgetPlan[],
  budgetSnapshots: readonly BucketSnapshot[],
  reservationId: string | undefined,
  rulePlan: RuleLimitPlan = { type: 'none' },
  ruleSnapshot?: BucketSnapshot,
): Verdict {
  const blocks = budgets.map((plan, i) =>
    budgetBlock(plan.budget, plan.amount, snapshotAt(budgetSnapshots, i)),
  );
  const breached: BreachedBudget[] = budgets.flatMap((plan, i) =>
    blocks[i]?.allowed === false
      ? [
          {
            name: plan.budget.name,
            limit: fromMicroUnits(plan.budget.limit),
            spent: fromMicroUnits(snapshotAt(budgetSnapshots, i).used),
            attempted_amount: fromMicroUnits(plan.amount ?? 0n),
            currency: plan.budget.currency,
            window: plan.budget.windowText,
          },
        ]
      : [],
  );
  const ruleCharges = rulePlan.type === 'check' ? [rulePlan.charge] : [];
  const charges: PlannedCharge[] = [
    ...ruleCharges,
    ...budgets.map((plan, i) => ({ ...plan.charge, breached: blocks[i]?.allowed === false })),
  ];
  const budgetOnlyApproval = breached.length > 0 && decision.action !== 'require_approval';
  const wire: WireDecision =
    decision.action === 'require_approval' || breached.length > 0 ? 'require_approval' : 'allow';
  return {
    wire,
    reason: decision.reason,
    feedback: budgetOnlyApproval
      ? budgetApprovalFeedback(breached.map((b) => b.name))
      : feedbackFor(wire, decision),
    limits: limitsBlock(rulePlan, ruleSnapshot, budgets.length > 0 ? blocks : undefined),
    blockReason: null,
    ...(reservationId === undefined ? {} : { reservationId }),
    charges,
    breached,
    budgetBlocks: blocks,
  };
}

function limitsBlock(
  rulePlan: RuleLimitPlan,
  ruleSnapshot: BucketSnapshot | undefined,
  budgets: readonly BudgetBlock[] | undefined,
): LimitsBlock | undefined {
  const out: { rate?: LimitsBlock['rate']; spend?: LimitsBlock['spend']; budgets?: readonly BudgetBlock[] } =
    {};
  if (rulePlan.type === 'invalid_amount') out.spend = invalidSpendBlock(rulePlan.limit);
  if (rulePlan.type === 'check' && ruleSnapshot !== undefined) {
    if (rulePlan.limit.type === 'rate') out.rate = rateBlock(rulePlan.limit, ruleSnapshot);
    else out.spend = spendBlock(rulePlan.limit, rulePlan.charge.amount, ruleSnapshot);
  }
  if (budgets !== undefined && budgets.length > 0) out.budgets = budgets;
  return Object.keys(out).length === 0 ? undefined : out;
}

/** The audit evidence of a terminal decision: the response's limits plus what grounded or gated it. */
function terminalChain(decision: PolicyDecision, verdict: Verdict): Readonly<Record<string, unknown>> | null {
  const chain: Record<string, unknown> = { ...verdict.limits };
  if (decision.grounding.type !== 'not_required') chain['grounding'] = decision.grounding;
  if (decision.drift !== undefined) chain['tool_drift'] = decision.drift;
  if (verdict.blockReason === 'session_unresolved')
    chain['session'] = { unresolved: true, tried: 'sideband session_id' };
  if (verdict.dryRun !== undefined) chain['dry_run'] = verdict.dryRun;
  return Object.keys(chain).length === 0 ? null : chain;
}

function snapshotAt(snapshots: readonly BucketSnapshot[], index: number): BucketSnapshot {
  const snapshot = snapshots[index];
  if (snapshot === undefined) throw new Error(`limit store returned no snapshot for check ${index}`);
  return snapshot;
}
