import { type CompileResult } from '@helios/governance';
import { type HeliosConfig } from '../config/config.schema.js';
import { checkTokenEnvironment } from './adapter-listener/adapter-tokens.js';
import { loadGovernancePolicy } from './policy-loader.js';

/**
 * The configured policy, compiled; undefined when none is set. Throws GovernancePolicyError, or
 * ConfigError for adapter API tokens that are too short or identical (before anything starts).
 */
export function prepareGovernance(config: HeliosConfig, env: NodeJS.ProcessEnv): CompileResult | undefined {
  const path = config.governance.policy;
  if (path === undefined) return undefined;
  const compiled = loadGovernancePolicy(path, env);
  if (compiled.policy.document.sdk.enabled) checkTokenEnvironment(env);
  return compiled;
}
