/** A request's time budget: its own (a positive integer of ms) or the default, never over the maximum. */
import { type ExecutionCapabilities, type ExecutionRequest } from './execution-types.js';

export function requestTimeout(
  request: ExecutionRequest,
  capabilities: ExecutionCapabilities,
): number | string {
  const asked = request.timeoutMs ?? capabilities.defaultTimeoutMs;
  if (!Number.isSafeInteger(asked) || asked < 1)
    return `timeoutMs must be a positive integer, got ${String(asked)}`;
  return Math.min(asked, capabilities.maxTimeoutMs);
}
