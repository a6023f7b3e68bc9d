/** Turns a validated policy document (config/) into the structure `decide()` runs on. */
import { type PolicyDocument, type BudgetConfig, type RuleConfig } from '../config/policy-schema.js';
import { parseDuration } from '../config/duration.js';
import { zeroDurationWarnings } from '../config/zero-durations.js';
import {
  type BudgetWindow,
  type CompiledBudget,
  type CompiledInstallRule,
  type CompiledPolicy,
  type CompiledRule,
  type RuleLimit,
} from './compiled-policy.js';
import { compileInputConditions, compileMetadataConditions } from './conditions.js';
import { parseDotPath } from './dot-path.js';
import { ruleLabel } from './match-rules.js';
import { compileGlob, type NameMatcher } from '../util/glob.js';
import { toMicroUnits } from '../util/money.js';

const DEFAULT_IDLE_TTL_MS = 24 * 3_600_000;

export interface CompileResult {
  readonly policy: CompiledPolicy;
  /** Non-fatal notes an operator should see at start (e.g. `limits.key: agent` falls back to `tool`). */
  readonly warnings: readonly string[];
}

export function compilePolicy(doc: PolicyDocument): CompileResult {
  const warnings: string[] = [];
  const rules = doc.policies.rules.map((rule, index) => compileRule(rule, index, warnings));
  const install = doc.policies.install;
  const policy: CompiledPolicy = {
    environment: doc.environment,
    defaultAction: doc.policies.default,
    flagDestructive: doc.policies.flag_destructive,
    onToolDrift: doc.policies.on_tool_drift,
    dryRun: doc.policies.dry_run,
    rules,
    install: install && {
      defaultAction: install.default,
      rules: install.rules.map((rule, index): CompiledInstallRule => ({
        index,
        name: rule.name,
        packageName: rule.match.name === undefined ? undefined : glob(rule.match.name),
        source: rule.match.source,
        metadata: compileMetadataConditions(rule.match.metadata ?? {}),
        action: rule.action,
        feedback: rule.feedback,
      })),
    },
    budgets: doc.budgets.map((budget, index) => compileBudget(budget, index)),
    evidenceKeys: new Set(rules.flatMap((rule) => rule.evidenceKeys)),
    requiredTools: new Set(rules.flatMap((rule) => rule.requiredTools)),
    onUnresolvedSession: doc.session.on_unresolved,
    approvalTimeoutMs: duration(doc.approval.timeout),
    evaluationTtlMs: duration(doc.sdk.evaluation_ttl),
    document: doc,
  };
  warnings.push(...zeroDurationWarnings(doc), ...retentionWarnings(policy));
  return { policy, warnings };
}

/**
 * The retention sweep deletes counter and ledger rows older than `audit.retention`: a window or idle
 * TTL longer than that forgets spend that is still inside it. Judged on the compiled windows, the ones
 * that run.
 */
function retentionWarnings(policy: CompiledPolicy): string[] {
  const retention = policy.document.audit.retention;
  const retentionMs = duration(retention);
  const longer: string[] = [];
  for (const rule of policy.rules) {
    if (rule.limit !== undefined && rule.limit.windowMs > retentionMs) {
      longer.push(
        `${ruleLabel(rule)} ${rule.limit.type === 'rate' ? 'limits.window' : 'limits.max_spend.window'}`,
      );
    }
  }
  for (const budget of policy.budgets) {
    const { window } = budget;
    const windowMs = window.type === 'sliding' ? window.ms : window.idleTtlMs;
    if (windowMs > retentionMs) {
      longer.push(`budget "${budget.name}" ${window.type === 'sliding' ? 'window' : 'idle_ttl'}`);
    }
  }
  return longer.map(
    (where) =>
      `${where} is longer than audit.retention (${retention}): the retention sweep forgets what was counted before that`,
  );
}

function compileRule(rule: RuleConfig, index: number, warnings: string[]): CompiledRule {
  const label = ruleLabel({ name: rule.name, index });
  if (rule.action === 'require_approval' && rule.approval === undefined) {
    warnings.push(`${label}: require_approval without an approval block uses the global approval.timeout`);
  }
  if (rule.limits?.key === 'agent' || rule.limits?.max_spend?.key === 'agent') {
    warnings.push(`${label}: limits key "agent" is not supported; the bucket is scoped by tool`);
  }
  // Limits count only under the action that names them: say so rather than let them look enforced.
  if (rule.limits !== undefined && rule.action !== 'rate_limit' && rule.action !== 'spend_limit') {
    warnings.push(
      `${label}: limits are ignored on action "${rule.action}" (only rate_limit and spend_limit count)`,
    );
  }
  if (rule.action === 'spend_limit' && rule.limits?.key !== undefined) {
    warnings.push(`${label}: limits.key is ignored on spend_limit; max_spend.key scopes the spend`);
  }
  return {
    index,
    name: rule.name,
    action: rule.action,
    tool: rule.match.tool === undefined ? undefined : glob(rule.match.tool),
    annotations: rule.match.annotations,
    input: compileInputConditions(rule.match.input ?? {}),
    environment: rule.match.environment,
    metadata: compileMetadataConditions(rule.match.metadata ?? {}),
    approvalTimeoutMs: rule.approval?.timeout === undefined ? undefined : duration(rule.approval.timeout),
    evidenceKeys: rule.evidence?.requires ?? [],
    requiredTools: rule.requires ?? [],
    requiresSuccess: rule.requires_success ?? true,
    limit: compileRuleLimit(rule),
    feedback: rule.feedback,
  };
}

/**
 * Only rate_limit and spend_limit rules have a limiter-backed limit; other actions ignore `limits`. A
 * zero rate window is no limit, as in the reference's adapter API (config/zero-durations.ts); a zero
 * spend window keeps its limit, which then holds each call's amount alone.
 */
function compileRuleLimit(rule: RuleConfig): RuleLimit | undefined {
  const limits = rule.limits;
  if (rule.action === 'rate_limit' && limits?.max_calls !== undefined && limits.window !== undefined) {
    if (duration(limits.window) === 0) return undefined;
    return {
      type: 'rate',
      maxCalls: limits.max_calls,
      windowMs: duration(limits.window),
      key: limits.key ?? 'tool',
    };
  }
  const spend = limits?.max_spend;
  if (rule.action === 'spend_limit' && spend !== undefined) {
    return {
      type: 'spend',
      field: parseDotPath(spend.field),
      fieldText: spend.field,
      limit: micro(spend.limit),
      currency: spend.currency,
      windowMs: duration(spend.window),
      key: spend.key ?? 'tool',
    };
  }
  return undefined;
}

function compileBudget(budget: BudgetConfig, index: number): CompiledBudget {
  const window: BudgetWindow =
    budget.window === 'session'
      ? {
          type: 'session',
          idleTtlMs: budget.idle_ttl === undefined ? DEFAULT_IDLE_TTL_MS : duration(budget.idle_ttl),
        }
      : { type: 'sliding', ms: duration(budget.window) };
  return {
    index,
    name: budget.name,
    limit: micro(budget.limit),
    currency: budget.currency,
    window,
    windowText: budget.window,
    key: budget.key,
    onExceed: budget.on_exceed,
    approvalTimeoutMs: budget.approval?.timeout === undefined ? undefined : duration(budget.approval.timeout),
    contributors: budget.contributors.map((contributor) => ({
      tool: glob(contributor.match.tool),
      input: compileInputConditions(contributor.match.input ?? {}),
      field: parseDotPath(contributor.field),
    })),
    identity: JSON.stringify([budget.limit, budget.currency, budget.window, budget.key]),
  };
}

// The schema has validated every glob, duration and amount; a failure here is a programming error.
function glob(pattern: string): NameMatcher {
  const matcher = compileGlob(pattern);
  if (typeof matcher === 'string') throw new Error(matcher);
  return matcher;
}

function duration(text: string): number {
  const ms = parseDuration(text);
  if (ms === undefined) throw new Error(`invalid duration ${text}`);
  return ms;
}

function micro(amount: number): bigint {
  const micros = toMicroUnits(amount);
  if (micros === undefined) throw new Error(`invalid amount ${amount}`);
  return micros;
}
