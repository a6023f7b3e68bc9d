/**
 * What the governance client hands back: closed unions, never exceptions. Every outcome that is not a
 * recognised server decision blocks — `decision: 'deny'` on the deciding routes, `ok: false` on the
 * others — so a caller that only checks `mayProceed()` can never fall through to "proceed".
 */
import {
  type EvaluateResponseBody,
  type EvidenceOutcome,
  type InstallScanResponseBody,
  type ResolveApprovalRequest,
  type WireDecision,
} from '../wire/wire-types.js';

/** The closed decision vocabulary this client understands; anything else is treated as `deny`. */
export const KNOWN_DECISIONS: readonly WireDecision[] = [
  'allow',
  'deny',
  'require_approval',
  'rate_limited',
  'spend_limited',
  'budget_exceeded',
  'dry_run',
];

/**
 * Why the client blocked without a usable server answer:
 * - `unreachable`: connection refused/reset, DNS, TLS — the request never got an answer;
 * - `timeout`: no complete answer within `timeoutMs` (connect, headers and body together);
 * - `server_error`: any 5xx (`error` carries the server's code when its body had one);
 * - `unexpected_status`: 1xx/3xx or another status the route never answers (redirects are not followed);
 * - `invalid_body`: the body is not JSON;
 * - `invalid_shape`: JSON that does not match the route's response shape (a missing or mistyped field);
 * - `invalid_request`: the request could not be serialized, or a client-side argument was unusable.
 */
export type FailClosedCause =
  | 'unreachable'
  | 'timeout'
  | 'server_error'
  | 'unexpected_status'
  | 'invalid_body'
  | 'invalid_shape'
  | 'invalid_request';

/** No trustworthy answer: the client decided to block. The adapter token never appears in `reason`. */
export interface FailClosed {
  readonly type: 'FailClosed';
  readonly failClosed: true;
  readonly cause: FailClosedCause;
  readonly reason: string;
  /** The HTTP status, when a response arrived. */
  readonly status?: number;
  /** The server's `error` code, when a 5xx body carried one (e.g. `evaluation_backlog_full`). */
  readonly error?: string;
}

/** A 4xx answer with the server's `error` code (e.g. `evaluation_conflict`, `ticket_not_found`). */
export interface Rejected {
  readonly type: 'Rejected';
  readonly failClosed: false;
  readonly status: number;
  /** The server's code; the seed's vocabulary is `GovernanceErrorCode`, the HTTP layer adds its own. */
  readonly error: string;
  readonly reason: string;
  /** `reserved_metadata_key`: the offending key. */
  readonly key?: string;
  /** `already_resolved`: the ticket's terminal status when the server knows it. */
  readonly ticketStatus?: string;
}

type Blocking<T> = T & { readonly decision: 'deny' };
type NotOk<T> = T & { readonly ok: false };

/** A decision the server made and this client recognises. */
export interface EvaluateDecided {
  readonly type: 'Decided';
  readonly failClosed: false;
  readonly decision: WireDecision;
  readonly evaluationId: string;
  readonly reason: string;
  /** The validated wire body, snake_case as the server sent it. */
  readonly response: EvaluateResponseBody;
}

/**
 * The server answered with a decision outside `KNOWN_DECISIONS` (a newer vocabulary): treated as deny.
 * The evaluation exists server-side, so the adapter may still audit it as `not_executed`.
 */
export interface UnrecognizedDecision {
  readonly type: 'UnrecognizedDecision';
  readonly failClosed: true;
  readonly decision: 'deny';
  readonly receivedDecision: string;
  readonly evaluationId: string;
  readonly reason: string;
}

export type EvaluateOutcome =
  EvaluateDecided | UnrecognizedDecision | Blocking<Rejected> | Blocking<FailClosed>;

export interface InstallScanDecided {
  readonly type: 'Decided';
  readonly failClosed: false;
  readonly decision: 'allow' | 'deny';
  readonly evaluationId: string;
  readonly reason: string;
  readonly response: InstallScanResponseBody;
}

export type InstallScanOutcome =
  InstallScanDecided | UnrecognizedDecision | Blocking<Rejected> | Blocking<FailClosed>;

/** 201 fresh finalization, or 200 for an idempotent replay / an evaluation already final at /evaluate. */
export interface Audited {
  readonly type: 'Audited';
  readonly ok: true;
  readonly status: 200 | 201;
  readonly auditRecordId: string;
  readonly alreadyFinalized: boolean;
  readonly finalizedBy?: 'evaluate';
  /** Per-entry evidence outcomes, present when the request carried evidence. */
  readonly evidence?: readonly EvidenceOutcome[];
}

/**
 * The client refused to send /audit: the evaluation was `require_approval` and this client has not
 * yet seen its ticket resolved (`resolveApproval` first). Nothing was sent.
 */
export interface AuditRefused {
  readonly type: 'Refused';
  readonly ok: false;
  readonly error: 'approval_not_resolved';
  readonly ticketId: string;
  readonly reason: string;
}

export type AuditOutcome = Audited | AuditRefused | NotOk<Rejected> | NotOk<FailClosed>;

export interface ApprovalResolved {
  readonly type: 'Resolved';
  readonly ok: true;
  readonly ticketId: string;
  readonly resolution: ResolveApprovalRequest['resolution'];
}

export type ResolveApprovalOutcome = ApprovalResolved | NotOk<Rejected> | NotOk<FailClosed>;

/**
 * True only when the tool call (or install) may run now:
 * - an evaluate / install-scan outcome whose server decision is `allow`;
 * - a resolve outcome that recorded `approved` — the only way a `require_approval` call may proceed.
 *
 * Everything else is false: `deny`, `rate_limited`, `spend_limited`, `budget_exceeded`, any
 * unrecognised decision, every error and fail-closed outcome, and `require_approval` itself (run the
 * approval in the host UI, call `resolveApproval`, and proceed only on an approved resolve). `dry_run`
 * is false too: the call is simulated, never executed — `response.dry_run.would_forward` says what
 * enforcement would have done. A resolve answered `409 already_resolved` is false even when its
 * `ticketStatus` is `approved` (say, a retry after a lost response): the client cannot tell whose
 * resolve won, so it blocks — audit `not_executed` and evaluate again.
 */
export function mayProceed(
  outcome: EvaluateOutcome | InstallScanOutcome | ResolveApprovalOutcome | null | undefined,
): boolean {
  if (outcome === null || outcome === undefined) return false;
  if (outcome.type === 'Decided') return outcome.failClosed === false && outcome.decision === 'allow';
  if (outcome.type === 'Resolved') return outcome.ok === true && outcome.resolution === 'approved';
  return false;
}
