import { ConfigError } from '../config/config-error.js';
import { GovernancePolicyError } from '../governance/policy-loader.js';

/** Errors we expect at start (bad config, unreachable database, port taken): a message, not a stack. */
export function exitWithStartupError(error: unknown): never {
  const expected = error instanceof Error && typeof (error as { code?: unknown }).code === 'string';
  const text = expected
    ? (error as Error).message
    : error instanceof Error
      ? (error.stack ?? error.message)
      : String(error);
  process.stderr.write(`helios: ${text}\n`);
  process.exit(error instanceof ConfigError || error instanceof GovernancePolicyError ? 2 : 1);
}
