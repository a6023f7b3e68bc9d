/**
 * Refusals as the reference gateway writes them. For a few refusals the reference puts prose in `error`
 * ("Validation error", "Invalid JSON", …) and its adapters and their logs match on that prose, so the
 * wire carries the same prose there and our stable snake_case code beside it in `code`. Every other
 * refusal already has a snake_case `error`, identical in both, and is sent as the engine answers it.
 * The engine itself answers codes only (`ErrorBody.error`): rendering is the transport's last step.
 */
import { type FieldError } from '@helios/core';
import { type ErrorBody, type EvidenceKeyRefusedBody } from './wire-types.js';

/** Refusals the transport makes before the engine sees a request. */
export type TransportErrorCode =
  | 'cross_origin_request'
  | 'cors_preflight'
  | 'unauthorized'
  | 'invalid_json'
  | 'not_found'
  | 'internal_error';

/** The reference's prose for each code it writes as prose (gethelio/helio, packages/proxy/src/sideband). */
export const REFERENCE_ERROR_TEXT = Object.freeze({
  invalid_request: 'Validation error',
  invalid_json: 'Invalid JSON',
  cross_origin_request: 'Cross-origin requests are not allowed',
  cors_preflight: 'CORS preflight requests are not allowed',
  unauthorized: 'Unauthorized',
  resolved_by_required: 'resolved_by is required for approved/denied',
  evidence_key_not_in_policy_allowlist: 'Evidence key is not in policy allowlist',
  internal_error: 'Internal server error',
} as const);

type ProseCode = keyof typeof REFERENCE_ERROR_TEXT;

/** A refusal as it goes on the wire: `error` is the reference's text, `code` (when it differs) ours. */
export interface WireErrorBody {
  readonly error: string;
  readonly code?: string;
  /** Every field that failed, by dotted path (the reference's `details`). */
  readonly details?: readonly FieldError[];
  readonly [field: string]: unknown;
}

/**
 * The wire form of an engine refusal or a transport refusal (`{ error: code }`). Field problems go out
 * as the reference's `details`, whatever the code.
 */
export function wireErrorBody(
  body: ErrorBody | EvidenceKeyRefusedBody | { readonly error: TransportErrorCode },
): WireErrorBody {
  const { issues, ...rest } = body as ErrorBody;
  const code = body.error;
  const details = issues === undefined ? {} : { details: issues.map(referencePath) };
  if (!Object.hasOwn(REFERENCE_ERROR_TEXT, code)) return { ...rest, ...details };
  return { ...rest, error: REFERENCE_ERROR_TEXT[code as ProseCode], code, ...details };
}

/** The reference joins a path's segments with dots, array indexes too: `evidence.0.ttl_seconds`. */
function referencePath(issue: FieldError): FieldError {
  return issue.path.includes('[') ? { ...issue, path: issue.path.replace(/\[(\d+)\]/g, '.$1') } : issue;
}

/** Our stable code of a wire refusal: `code` where the reference writes prose, else `error`. */
export function wireErrorCode(body: { readonly error: string; readonly code?: string | undefined }): string {
  return body.code ?? body.error;
}
