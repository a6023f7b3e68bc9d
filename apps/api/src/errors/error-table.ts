import { type EvidenceKeyRefusedBody, type GovernanceErrorCode } from '@helios/governance';

/**
 * The one table from stable reason codes to HTTP statuses. Libraries never speak HTTP: they answer with
 * a `HeliosError.code` (UPPER_SNAKE) or, for governance, the adapter API's wire `error` string
 * (snake_case, fixed by the original's clients). The global exception filter and the adapter listener
 * both look statuses up here, so one code always means one status.
 */
export const ERROR_STATUS = {
  // Governance adapter API (wire `error` strings, seed 002 and the original's proxy).
  invalid_request: 400,
  json_too_deep: 400,
  reserved_metadata_key: 400,
  origin_limit_exceeded: 400,
  tool_baseline_limit: 400,
  resolved_by_required: 400,
  invalid_actual_amount: 400,
  no_spend_rule: 400,
  evidence_key_not_in_policy_allowlist: 400,
  evaluation_unknown: 404,
  evaluation_expired: 404,
  ticket_not_found: 404,
  evaluation_conflict: 409,
  approval_unresolved: 409,
  not_a_native_ticket: 409,
  already_resolved: 409,
  tool_input_too_large: 413,
  metadata_too_large: 413,
  tool_definition_too_large: 413,
  evidence_too_large: 413,
  context_too_large: 413,
  evaluation_backlog_full: 503,
  limit_capacity_exhausted: 503,
  evidence_unavailable: 503,
  sideband_shutting_down: 503,
  session_capacity_exhausted: 503,

  // Library errors (`HeliosError.code`).
  INVALID_ARGUMENT: 400,
  INVALID_WIRE_EVENT: 400,
  STRUCTURED_OUTPUT_PARSE: 422,
  // Answering a question that is not pending is the runtime API's 404 (unknown or already answered).
  QUESTION_NOT_PENDING: 404,
  SESSION_CLOSED: 409,
  SESSION_CONFLICT: 409,
  SESSION_STORE_BUSY: 409,
  SESSION_STORE_CORRUPT: 500,
  WORKSPACE_PATH_REFUSED: 403,
  MEMORY_REFUSED: 403,
  RUN_NOT_SUCCESSFUL: 409,
  RUN_CANCELLED: 409,
  STEERING_QUEUE_FULL: 429,
  SESSION_UNAVAILABLE: 503,
  CIRCUIT_OPEN: 503,
  RETRY_EXHAUSTED: 502,
  PROVIDER_ERROR: 502,
  STREAM_INCOMPLETE: 502,
  TRANSIENT_STREAM: 502,
  STREAM_IDLE_TIMEOUT: 504,
  OPERATION_TIMEOUT: 504,

  // The runtime API's own refusals (apps/api/src/auth/refusals.ts: one fixed body each).
  INVALID_REQUEST: 400,
  AGENT_NOT_FOUND: 400,
  UNAUTHENTICATED: 401,
  SESSION_NOT_FOUND: 404,
  REQUEST_TOO_LARGE: 413,
  TOO_MANY_REQUESTS: 429,
  SESSION_LIMIT_REACHED: 429,
  SESSION_FAILED: 500,
  SESSION_OPEN_FAILED: 500,
  SERVER_BUSY: 503,
  REGISTRY_FULL: 503,
} as const satisfies Record<string, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** Every code the governance library can answer has a row: a new one fails the build until it is added. */
type UnmappedGovernanceCode = Exclude<GovernanceErrorCode | EvidenceKeyRefusedBody['error'], ErrorCode>;
export const EVERY_GOVERNANCE_CODE_MAPPED: [UnmappedGovernanceCode] extends [never]
  ? true
  : UnmappedGovernanceCode = true;

/** The status for `code`; a code nobody registered is a bug on our side, hence 500. */
export function httpStatusFor(code: string): number {
  return Object.hasOwn(ERROR_STATUS, code) ? ERROR_STATUS[code as ErrorCode] : 500;
}
