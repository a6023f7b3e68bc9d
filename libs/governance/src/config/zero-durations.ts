/**
 * Zero durations. The reference accepts `0s` (or `0m`, `0h`, `0d`) wherever a duration goes, and its
 * runtime gives each one a meaning; Helios gives the same one (engine/compile-policy.ts compiles it, the
 * stores and the service need nothing special). Read from the reference's adapter API code:
 *
 * - a rate rule's `limits.window`: the rule is not rate limited (its adapter API skips a limit whose
 *   window is zero: the call is allowed, with no `limits.rate` block);
 * - `limits.max_spend.window`, a budget's `window`: nothing charged stays in a window of no length, so
 *   each call is judged on its own amount against the limit (plus, in Helios, the holds of calls not
 *   yet audited, as for every window);
 * - a budget's `idle_ttl`: a session pot with nothing pending is over as soon as it is idle;
 * - `approval.timeout` and a rule's or budget's `approval.timeout`: the native ticket times out at its
 *   first deadline check, so `require_approval` never becomes an approval;
 * - `sdk.evaluation_ttl`: every evaluation that waits for `/audit` expires at once (an
 *   `evaluation_expired` record; `/audit` answers 404), so nothing is ever charged;
 * - `audit.retention`: each retention sweep (at start, then daily) deletes every record, ledger row and
 *   counter charge older than the sweep.
 *
 * The MCP-door and dashboard durations (`upstream.*_timeout`, `dashboard.sse_heartbeat_interval`,
 * `escalation_after`, `tool_revalidation.max_advertised_ttl`) are accepted and read by nothing.
 */
import { parseDuration } from './duration.js';
import { type PolicyDocument } from './policy-schema.js';

const isZero = (text: string | undefined): boolean => text !== undefined && parseDuration(text) === 0;

/** One start-up warning per served zero duration, saying what it does (they are legal, rarely meant). */
export function zeroDurationWarnings(doc: PolicyDocument): string[] {
  const warnings: string[] = [];
  const warn = (path: string, meaning: string): void => {
    warnings.push(`${path} is zero: ${meaning}`);
  };
  doc.policies.rules.forEach((rule, i) => {
    const path = `policies.rules[${i}]`;
    if (rule.action === 'rate_limit' && isZero(rule.limits?.window)) {
      warn(`${path}.limits.window`, 'the rule is not rate limited (as in the reference)');
    }
    if (rule.action === 'spend_limit' && isZero(rule.limits?.max_spend?.window)) {
      warn(`${path}.limits.max_spend.window`, 'nothing accumulates; each call is judged on its own amount');
    }
    if (rule.action === 'require_approval' && isZero(rule.approval?.timeout)) {
      warn(`${path}.approval.timeout`, 'its approval tickets time out at once');
    }
  });
  doc.budgets.forEach((budget, i) => {
    const path = `budgets[${i}]`;
    if (isZero(budget.window))
      warn(`${path}.window`, 'nothing accumulates; each call is judged on its own amount');
    if (isZero(budget.idle_ttl))
      warn(`${path}.idle_ttl`, 'a session pot starts over whenever nothing is pending');
    if (budget.on_exceed === 'require_approval' && isZero(budget.approval?.timeout)) {
      warn(`${path}.approval.timeout`, 'its break-glass tickets time out at once');
    }
  });
  if (isZero(doc.approval.timeout))
    warn('approval.timeout', 'approval tickets without their own timeout time out at once');
  if (isZero(doc.sdk.evaluation_ttl)) {
    warn(
      'sdk.evaluation_ttl',
      'every allowed or approval-gated call expires before /audit; nothing is charged',
    );
  }
  if (isZero(doc.audit.retention))
    warn('audit.retention', 'each retention sweep (at start, then daily) deletes every record');
  return warnings;
}
