/**
 * zod guards for the adapter API's response bodies (wire-types.ts). A body that fails them is not a
 * decision: the client blocks on it. `decision` is parsed as a string here and checked against the
 * closed vocabulary separately, so an unknown value becomes a deny that still carries its evaluation id.
 */
import { z } from 'zod';
import {
  type BudgetBlock,
  type EvaluateResponseBody,
  type EvidenceOutcome,
  type FeedbackBlock,
  type InstallScanResponseBody,
  type LimitsBlock,
  type RateBlock,
  type SpendBlock,
} from '../wire/wire-types.js';
import { type DriftChange } from '../drift/drift-change.js';

type WithStringDecision<T> = Omit<T, 'decision'> & { readonly decision: string };

const nonEmpty = z.string().min(1);
const finite = z.number();

const feedbackSchema: z.ZodType<FeedbackBlock> = z.object({
  message: z.string(),
  suggestion: z.string().optional(),
});

const rateSchema: z.ZodType<RateBlock> = z.object({
  current: finite,
  limit: finite,
  window_ms: finite,
  reset_at_ms: finite,
});

const spendSchema: z.ZodType<SpendBlock> = z.union([
  z.object({
    current_spend: finite,
    limit: finite,
    currency: z.string(),
    window_ms: finite,
    reset_at_ms: finite,
  }),
  z.object({ reason: z.literal('invalid_amount'), limit: finite, currency: z.string() }),
]);

const budgetSchema: z.ZodType<BudgetBlock> = z.object({
  name: z.string(),
  limit: finite,
  spent: finite,
  remaining: finite,
  attempted_amount: finite.nullable(),
  currency: z.string(),
  window: z.string(),
  on_exceed: z.enum(['deny', 'require_approval']),
  allowed: z.boolean(),
  reset_at_ms: finite.nullable(),
  reason: z.literal('invalid_amount').optional(),
  kind: z.enum(['spend', 'approved_overage']).optional(),
});

const limitsSchema: z.ZodType<LimitsBlock> = z.object({
  rate: rateSchema.optional(),
  spend: spendSchema.optional(),
  budgets: z.array(budgetSchema).optional(),
});

/** Each side as sent, any JSON (absent when that definition lacked the aspect). */
const driftChangeSchema: z.ZodType<DriftChange> = z.object({
  aspect: z.enum(['annotations', 'inputSchema', 'outputSchema', 'description', 'title', 'other']),
  baseline: z.unknown().optional(),
  current: z.unknown().optional(),
});

const decisionHead = {
  evaluation_id: nonEmpty,
  decision: nonEmpty,
  reason: z.string(),
  matched_rule: z.string().nullable(),
  matched_rule_index: z.number().int().nonnegative().nullable(),
  feedback: feedbackSchema.optional(),
};

export const evaluateResponseSchema: z.ZodType<WithStringDecision<EvaluateResponseBody>> = z
  .object({
    ...decisionHead,
    approval: z.object({ id: nonEmpty, timeout_ms: finite, resolve_path: z.string() }).optional(),
    limits: limitsSchema.optional(),
    dry_run: z
      .object({
        would_forward: z.boolean(),
        evidence_satisfied: z.boolean(),
        limits_ok: z.boolean(),
        session_unresolved: z.literal(true).optional(),
      })
      .optional(),
    tool_drift: z.object({ changes: z.array(driftChangeSchema) }).optional(),
  })
  // Without its ticket a require_approval can never be resolved, so it cannot be honoured.
  .refine((body) => body.decision !== 'require_approval' || body.approval !== undefined, {
    message: 'require_approval without an approval block',
    path: ['approval'],
  });

export const installScanResponseSchema: z.ZodType<WithStringDecision<InstallScanResponseBody>> =
  z.object(decisionHead);

const evidenceOutcomeSchema: z.ZodType<EvidenceOutcome> = z.object({
  evidence_key: z.string(),
  stored: z.boolean(),
  reason: z
    .enum([
      'key_not_in_policy_allowlist',
      'too_large',
      'too_many',
      'no_session',
      'evidence_unavailable',
      'closed',
      'session_capacity_exhausted',
    ])
    .optional(),
});

export const auditFinalizedSchema = z.object({
  ok: z.literal(true),
  audit_record_id: nonEmpty,
  evidence: z.array(evidenceOutcomeSchema).optional(),
});

export const auditReplayedSchema = z.object({
  ok: z.literal(true),
  audit_record_id: nonEmpty,
  already_finalized: z.literal(true),
  finalized_by: z.literal('evaluate').optional(),
});

export const resolvedSchema = z.object({ ok: z.literal(true) });

/** A refusal; where the reference writes prose in `error`, our stable code is in `code`. */
export const errorBodySchema = z.object({
  error: nonEmpty,
  code: nonEmpty.optional(),
  key: z.string().optional(),
  status: z.string().optional(),
});

/** A zod failure as one line naming the first offending path (never the body's values). */
export function describeIssues(error: z.ZodError): string {
  const issue = error.issues[0];
  const at = issue === undefined || issue.path.length === 0 ? '(body)' : issue.path.map(String).join('.');
  return `response does not match the expected shape at ${at}: ${issue?.message ?? 'invalid'}`;
}
