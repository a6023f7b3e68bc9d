/** Service outcomes as closed unions carrying the HTTP status and the wire body. */
import {
  type ErrorBody,
  type SessionStateBody,
  type EvidenceKeyRefusedBody,
  type EvaluateResponseBody,
  type EvidenceOutcome,
  type InstallScanResponseBody,
} from './wire-types.js';

export interface Failure<S extends number = number> {
  readonly type: 'error';
  readonly status: S;
  readonly body: ErrorBody;
}

export type EvaluateResult =
  | { readonly type: 'decided'; readonly status: 200; readonly body: EvaluateResponseBody }
  | Failure<400 | 413 | 503>;

export type AuditResult =
  | {
      readonly type: 'finalized';
      readonly status: 201;
      readonly body: {
        readonly ok: true;
        readonly audit_record_id: string;
        readonly evidence?: readonly EvidenceOutcome[];
      };
    }
  | {
      readonly type: 'replayed';
      readonly status: 200;
      readonly body: {
        readonly ok: true;
        readonly audit_record_id: string;
        readonly already_finalized: true;
        readonly finalized_by?: 'evaluate';
      };
    }
  | Failure<400 | 404 | 409>;

export type ResolveApprovalResult =
  | { readonly type: 'resolved'; readonly status: 200; readonly body: { readonly ok: true } }
  | Failure<400 | 404 | 409>;

export type InstallScanResult =
  | { readonly type: 'scanned'; readonly status: 200; readonly body: InstallScanResponseBody }
  | Failure<400 | 413>;

export function failure<S extends number>(status: S, body: ErrorBody): Failure<S> {
  return { type: 'error', status, body };
}

export type EvidenceResult =
  | { readonly type: 'stored'; readonly status: 201; readonly body: { readonly ok: true } }
  | { readonly type: 'refused'; readonly status: 400; readonly body: EvidenceKeyRefusedBody }
  | Failure<400 | 413 | 503>;

export type ContextResult =
  | { readonly type: 'stored'; readonly status: 201; readonly body: { readonly ok: true } }
  | Failure<400 | 413 | 503>;

export type SessionStateResult =
  { readonly type: 'state'; readonly status: 200; readonly body: SessionStateBody } | Failure<400 | 503>;
