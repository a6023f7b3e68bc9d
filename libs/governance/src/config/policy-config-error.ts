/** The one error a policy document raises: every problem found, each with the path it lives at. */
import { HeliosError } from '@helios/core';

export interface PolicyConfigIssue {
  /** Dotted path with `[i]` indexes (`policies.rules[2].match.tool`); empty for the document root. */
  readonly path: string;
  readonly message: string;
}

export class PolicyConfigError extends HeliosError {
  readonly code = 'POLICY_CONFIG_INVALID';
  readonly issues: readonly PolicyConfigIssue[];

  constructor(issues: readonly PolicyConfigIssue[]) {
    super(
      `Invalid governance policy (${issues.length} problem${issues.length === 1 ? '' : 's'}):\n` +
        issues.map((issue) => `  - ${issue.path || '(root)'}: ${issue.message}`).join('\n'),
    );
    this.issues = issues;
  }
}

export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}
