/** How strict an action is, for "keep the stricter" comparisons (drift log mode). */
import { type PolicyAction } from './compiled-policy.js';

const SEVERITY: Readonly<Record<PolicyAction, number>> = {
  allow: 0,
  rate_limit: 1,
  spend_limit: 2,
  dry_run: 3,
  require_approval: 4,
  deny: 5,
};

export function actionSeverity(action: PolicyAction): number {
  return SEVERITY[action];
}
