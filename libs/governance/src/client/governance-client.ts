/**
 * A framework-free client for the governance adapter API (POST /evaluate, /audit, /install-scan,
 * /approval/:id/resolve) with the seed's adapter MUST rules built in:
 * - fail closed: unreachable, timeout, 5xx, unparsable or mis-shaped bodies become blocking outcomes,
 *   never exceptions and never `allow`;
 * - decisions are parsed against a closed enum; an unknown value is a deny;
 * - resolve before audit: a `require_approval` evaluation is not audited until its ticket resolved;
 * - token scope: only `Authorization: Bearer <adapter token>` is sent (never an `Origin`), and the
 *   token never appears in an outcome's text.
 */
import { type z } from 'zod';
import {
  type AuditRequest,
  type EvaluateRequest,
  type InstallScanRequest,
  type ResolveApprovalRequest,
  type WireDecision,
} from '../wire/wire-types.js';
import {
  KNOWN_DECISIONS,
  type AuditOutcome,
  type EvaluateOutcome,
  type FailClosed,
  type FailClosedCause,
  type InstallScanOutcome,
  type Rejected,
  type ResolveApprovalOutcome,
  type UnrecognizedDecision,
} from './outcomes.js';
import {
  auditFinalizedSchema,
  auditReplayedSchema,
  describeIssues,
  errorBodySchema,
  evaluateResponseSchema,
  installScanResponseSchema,
  resolvedSchema,
} from './response-schemas.js';
import { wireErrorCode } from '../wire/wire-errors.js';

export interface GovernanceClientOptions {
  /** The SDK sideband, e.g. `http://127.0.0.1:3200`; a path prefix is kept. */
  readonly baseUrl: string;
  /** `HELIO_ADAPTER_TOKEN` — never the SDK token. Sent only as `Authorization: Bearer …`. */
  readonly adapterToken: string;
  /** Deadline per request covering connect, headers and body (default `DEFAULT_CLIENT_TIMEOUT_MS`). */
  readonly timeoutMs?: number;
  /** The fetch to use (default: Node's global `fetch`). */
  readonly fetch?: typeof globalThis.fetch;
}

export const DEFAULT_CLIENT_TIMEOUT_MS = 5_000;

/**
 * Unresolved `require_approval` evaluations remembered for the resolve-before-audit guard. Past this
 * the oldest is forgotten (the server still answers 409 approval_unresolved for it); the server's own
 * pending cap is the same 10,000.
 */
export const MAX_TRACKED_APPROVALS = 10_000;

const DECISIONS: ReadonlySet<string> = new Set(KNOWN_DECISIONS);
const TOKEN_PATTERN = /^[\x21-\x7e]+$/;

/** A response the route may have produced: its status and parsed JSON body. */
interface Answered {
  readonly type: 'Answered';
  readonly status: number;
  readonly json: unknown;
}

interface TrackedApproval {
  readonly ticketId: string;
  resolution: string | undefined;
}

export class GovernanceClient {
  readonly #baseUrl: string;
  readonly #token: string;
  readonly #timeoutMs: number;
  readonly #fetch: typeof globalThis.fetch;
  /** evaluation id → its native ticket, until audited. */
  readonly #approvals = new Map<string, TrackedApproval>();
  readonly #evaluationByTicket = new Map<string, string>();

  /** Throws a `TypeError` (naming no secret) for a malformed configuration; no request ever throws. */
  constructor(options: GovernanceClientOptions) {
    let url: URL;
    try {
      url = new URL(options.baseUrl);
    } catch {
      throw new TypeError('GovernanceClient: baseUrl must be an absolute http(s) URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new TypeError('GovernanceClient: baseUrl must be an absolute http(s) URL');
    }
    if (typeof options.adapterToken !== 'string' || !TOKEN_PATTERN.test(options.adapterToken)) {
      throw new TypeError('GovernanceClient: adapterToken must be a non-empty printable token');
    }
    const timeoutMs = options.timeoutMs ?? DEFAULT_CLIENT_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw new TypeError('GovernanceClient: timeoutMs must be a positive integer');
    }
    this.#baseUrl = url.href.replace(/\/+$/, '');
    this.#token = options.adapterToken;
    this.#timeoutMs = timeoutMs;
    this.#fetch = options.fetch ?? globalThis.fetch;
  }

  /** POST /evaluate. Blocks (`decision: 'deny'`) on anything but a recognised server decision. */
  async evaluate(request: EvaluateRequest): Promise<EvaluateOutcome> {
    const outcome = await this.#decide('/evaluate', request, evaluateResponseSchema, isKnownDecision);
    if (outcome.type === 'Decided' && outcome.decision === 'require_approval' && outcome.response.approval) {
      this.#track(outcome.evaluationId, outcome.response.approval.id);
    }
    return outcome;
  }

  /**
   * POST /audit. Refused locally (nothing sent) for a `require_approval` evaluation of this client
   * whose ticket has not been resolved through `resolveApproval`. Retrying after a fail-closed outcome
   * is safe: the server is idempotent on `evaluation_id`.
   */
  async audit(request: AuditRequest): Promise<AuditOutcome> {
    const tracked = this.#approvals.get(request.evaluation_id);
    if (tracked !== undefined && tracked.resolution === undefined) {
      return {
        type: 'Refused',
        ok: false,
        error: 'approval_not_resolved',
        ticketId: tracked.ticketId,
        reason: `evaluation requires approval: resolve ticket ${tracked.ticketId} before auditing`,
      };
    }
    const answer = await this.#post('/audit', request);
    if (answer.type !== 'Answered') return { ...answer, ok: false };
    const schema =
      answer.status === 201 ? auditFinalizedSchema : answer.status === 200 ? auditReplayedSchema : null;
    if (schema === null) return { ...this.#unexpected(answer.status), ok: false };
    const parsed = schema.safeParse(answer.json);
    if (!parsed.success) return { ...this.#invalidShape(parsed.error, answer.status), ok: false };
    this.#forget(request.evaluation_id);
    const body: z.infer<typeof auditFinalizedSchema> & Partial<z.infer<typeof auditReplayedSchema>> =
      parsed.data;
    return {
      type: 'Audited',
      ok: true,
      status: answer.status === 201 ? 201 : 200,
      auditRecordId: body.audit_record_id,
      alreadyFinalized: body.already_finalized === true,
      ...(body.finalized_by === undefined ? {} : { finalizedBy: body.finalized_by }),
      ...(body.evidence === undefined ? {} : { evidence: body.evidence }),
    };
  }

  /** POST /install-scan. Blocks (`decision: 'deny'`) on anything but a recognised allow/deny. */
  installScan(request: InstallScanRequest): Promise<InstallScanOutcome> {
    return this.#decide('/install-scan', request, installScanResponseSchema, isInstallDecision);
  }

  /**
   * The path /evaluate and /install-scan share: a 200 whose body has the route's shape and whose
   * decision is one `known` accepts; anything else is a blocking outcome.
   */
  async #decide<B extends { evaluation_id: string; decision: string; reason: string }, D extends string>(
    path: string,
    request: unknown,
    schema: z.ZodType<B>,
    known: (decision: string) => decision is D,
  ): Promise<
    | {
        readonly type: 'Decided';
        readonly failClosed: false;
        readonly decision: D;
        readonly evaluationId: string;
        readonly reason: string;
        readonly response: B & { readonly decision: D };
      }
    | UnrecognizedDecision
    | (Rejected & { readonly decision: 'deny' })
    | (FailClosed & { readonly decision: 'deny' })
  > {
    const answer = await this.#post(path, request);
    if (answer.type !== 'Answered') return { ...answer, decision: 'deny' };
    if (answer.status !== 200) return { ...this.#unexpected(answer.status), decision: 'deny' };
    const parsed = schema.safeParse(answer.json);
    if (!parsed.success) return { ...this.#invalidShape(parsed.error, answer.status), decision: 'deny' };
    const body = parsed.data;
    const decision = body.decision;
    if (!known(decision)) return unrecognized(body.evaluation_id, decision);
    return {
      type: 'Decided',
      failClosed: false,
      decision,
      evaluationId: body.evaluation_id,
      reason: body.reason,
      response: { ...body, decision },
    };
  }

  /**
   * POST /approval/:id/resolve. A 200 — or a 409 `already_resolved`, whose ticket is terminal too —
   * unlocks /audit for the ticket's evaluation; only an `approved` 200 lets the call proceed.
   */
  async resolveApproval(ticketId: string, request: ResolveApprovalRequest): Promise<ResolveApprovalOutcome> {
    if (typeof ticketId !== 'string' || ticketId === '') {
      return { ...failClosed('invalid_request', 'ticketId must be a non-empty string'), ok: false };
    }
    const answer = await this.#post(`/approval/${encodeURIComponent(ticketId)}/resolve`, request);
    if (answer.type !== 'Answered') {
      if (answer.type === 'Rejected' && answer.error === 'already_resolved') {
        this.#markResolved(ticketId, answer.ticketStatus ?? 'unknown');
      }
      return { ...answer, ok: false };
    }
    if (answer.status !== 200) return { ...this.#unexpected(answer.status), ok: false };
    const parsed = resolvedSchema.safeParse(answer.json);
    if (!parsed.success) return { ...this.#invalidShape(parsed.error, answer.status), ok: false };
    this.#markResolved(ticketId, request.resolution);
    return { type: 'Resolved', ok: true, ticketId, resolution: request.resolution };
  }

  /** One POST: JSON in, `{ status, json }` out for 2xx; every other result is already an outcome. */
  async #post(path: string, request: unknown): Promise<Answered | Rejected | FailClosed> {
    let payload: string | undefined;
    try {
      payload = JSON.stringify(request);
    } catch (error) {
      return failClosed('invalid_request', `request is not serializable as JSON: ${this.#describe(error)}`);
    }
    if (payload === undefined) return failClosed('invalid_request', 'request is not serializable as JSON');

    const signal = AbortSignal.timeout(this.#timeoutMs);
    let status: number;
    let text: string;
    try {
      const response = await this.#fetch(`${this.#baseUrl}${path}`, {
        method: 'POST',
        // Exactly these headers: no Origin (the server refuses it), no other credential.
        headers: {
          authorization: `Bearer ${this.#token}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: payload,
        // A redirect is not an answer; following one could also carry the token elsewhere.
        redirect: 'manual',
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (signal.aborted) {
        return failClosed('timeout', `no answer from the governance server within ${this.#timeoutMs} ms`);
      }
      return failClosed('unreachable', `governance server unreachable: ${this.#describe(error)}`);
    }

    if (status >= 500 && status <= 599) {
      const code = errorCode(text);
      return {
        ...failClosed(
          'server_error',
          `governance server error ${status}${code === undefined ? '' : ` (${code})`}`,
        ),
        status,
        ...(code === undefined ? {} : { error: code }),
      };
    }
    const success = status >= 200 && status < 300;
    if (!success && !(status >= 400 && status < 500)) return this.#unexpected(status);

    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return { ...failClosed('invalid_body', `response ${status} is not JSON`), status };
    }
    if (success) return { type: 'Answered', status, json };

    const parsed = errorBodySchema.safeParse(json);
    if (!parsed.success) return this.#invalidShape(parsed.error, status);
    const { key, status: ticketStatus } = parsed.data;
    const error = wireErrorCode(parsed.data);
    return {
      type: 'Rejected',
      failClosed: false,
      status,
      error,
      reason: `governance server rejected the request: ${status} ${error}`,
      ...(key === undefined ? {} : { key }),
      ...(ticketStatus === undefined ? {} : { ticketStatus }),
    };
  }

  #unexpected(status: number): FailClosed {
    return { ...failClosed('unexpected_status', `unexpected response status ${status}`), status };
  }

  #invalidShape(error: z.ZodError, status: number): FailClosed {
    return { ...failClosed('invalid_shape', describeIssues(error)), status };
  }

  /** An error's message and cause code, with the token scrubbed should a fetch ever echo it. */
  #describe(error: unknown): string {
    const message = error instanceof Error ? error.message : String(error);
    const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
    const code = typeof cause?.code === 'string' ? ` (${cause.code})` : '';
    return `${message}${code}`.split(this.#token).join('[redacted]');
  }

  #track(evaluationId: string, ticketId: string): void {
    if (this.#approvals.size >= MAX_TRACKED_APPROVALS) {
      const oldest = this.#approvals.keys().next();
      if (oldest.done !== true) this.#forget(oldest.value);
    }
    this.#approvals.set(evaluationId, { ticketId, resolution: undefined });
    this.#evaluationByTicket.set(ticketId, evaluationId);
  }

  #markResolved(ticketId: string, resolution: string): void {
    const evaluationId = this.#evaluationByTicket.get(ticketId);
    const tracked = evaluationId === undefined ? undefined : this.#approvals.get(evaluationId);
    if (tracked !== undefined) tracked.resolution = resolution;
  }

  #forget(evaluationId: string): void {
    const tracked = this.#approvals.get(evaluationId);
    if (tracked === undefined) return;
    this.#approvals.delete(evaluationId);
    this.#evaluationByTicket.delete(tracked.ticketId);
  }
}

function isKnownDecision(decision: string): decision is WireDecision {
  return DECISIONS.has(decision);
}

function isInstallDecision(decision: string): decision is 'allow' | 'deny' {
  return decision === 'allow' || decision === 'deny';
}

function failClosed(cause: FailClosedCause, reason: string): FailClosed {
  return { type: 'FailClosed', failClosed: true, cause, reason };
}

function unrecognized(evaluationId: string, received: string): UnrecognizedDecision {
  return {
    type: 'UnrecognizedDecision',
    failClosed: true,
    decision: 'deny',
    receivedDecision: received,
    evaluationId,
    reason: `unrecognized decision ${JSON.stringify(received)} treated as deny`,
  };
}

/** The `error` code of a 5xx JSON body, if it has one. */
function errorCode(text: string): string | undefined {
  try {
    const parsed = errorBodySchema.safeParse(JSON.parse(text));
    return parsed.success ? wireErrorCode(parsed.data) : undefined;
  } catch {
    return undefined;
  }
}
