/**
 * What the service's entry points answer: closed unions of a PascalCase discriminant and the adapter
 * API's snake_case body. No transport here: the HTTP layer maps each `type` (and, for `Error`, the wire
 * code in `body.error`) to a status, and adds what only it knows (an approval's `resolve_path`).
 */
import {
  type ErrorBody,
  type EvaluateDecisionBody,
  type EvidenceKeyRefusedBody,
  type EvidenceOutcome,
  type InstallScanResponseBody,
  type SessionStateBody,
} from '../wire/wire-types.js';

/** Refused: `body.error` is the stable wire code (e.g. `evaluation_backlog_full`). */
export interface Failure {
  readonly type: 'Error';
  readonly body: ErrorBody;
}

export function failure(body: ErrorBody): Failure {
  return { type: 'Error', body };
}

export type EvaluateResult = { readonly type: 'Decided'; readonly body: EvaluateDecisionBody } | Failure;

export type AuditResult =
  | {
      readonly type: 'Finalized';
      readonly body: {
        readonly ok: true;
        readonly audit_record_id: string;
        readonly evidence?: readonly EvidenceOutcome[];
      };
    }
  | {
      /** A retry of the finalizing audit, or an audit of an evaluation already final at /evaluate. */
      readonly type: 'Replayed';
      readonly body: {
        readonly ok: true;
        readonly audit_record_id: string;
        readonly already_finalized: true;
        readonly finalized_by?: 'evaluate';
      };
    }
  | Failure;

export type ResolveApprovalResult =
  { readonly type: 'Resolved'; readonly body: { readonly ok: true } } | Failure;

export type InstallScanResult =
  { readonly type: 'Scanned'; readonly body: InstallScanResponseBody } | Failure;

export type EvidenceResult =
  | { readonly type: 'Stored'; readonly body: { readonly ok: true } }
  /** The key is on no rule's `evidence.requires`; `body.error` is the wire code. */
  | { readonly type: 'Refused'; readonly body: EvidenceKeyRefusedBody }
  | Failure;

export type ContextResult = { readonly type: 'Stored'; readonly body: { readonly ok: true } } | Failure;

export type SessionStateResult = { readonly type: 'State'; readonly body: SessionStateBody } | Failure;

/** Every answer of the service, for a transport that maps them all in one place. */
export type GovernanceResult =
  | EvaluateResult
  | AuditResult
  | ResolveApprovalResult
  | InstallScanResult
  | EvidenceResult
  | ContextResult
  | SessionStateResult;
