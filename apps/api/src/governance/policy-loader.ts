import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  loadPolicy,
  PolicyConfigError,
  type CompileResult,
  type PolicyConfigIssue,
} from '@helios/governance';

/** The governance policy cannot be used; the server does not start (governance fails closed). */
export class GovernancePolicyError extends Error {
  readonly code = 'GOVERNANCE_POLICY_INVALID';

  constructor(
    readonly file: string,
    readonly issues: readonly PolicyConfigIssue[],
  ) {
    super(
      `invalid governance policy (${file}):\n${issues.map((i) => `  - ${i.path || '(root)'}: ${i.message}`).join('\n')}`,
    );
    this.name = 'GovernancePolicyError';
  }
}

/**
 * Reads and compiles the policy named by `governance.policy` / HELIO_POLICY. Any problem — unreadable
 * file, invalid YAML, unknown key, bad cross-field rule, ReDoS-prone regex — is a GovernancePolicyError
 * listing every issue by path.
 */
export function loadGovernancePolicy(
  path: string,
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): CompileResult {
  const file = resolve(cwd, path);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new GovernancePolicyError(file, [{ path: '', message: `cannot read the file: ${why}` }]);
  }
  try {
    return loadPolicy(text, { env });
  } catch (error) {
    if (error instanceof PolicyConfigError) throw new GovernancePolicyError(file, error.issues);
    throw error;
  }
}
