import { compileJsonSchema } from '@helios/core';
import {
  type AuditRequest,
  type ContextRequest,
  type EvaluateDecisionBody,
  type EvaluateRequest,
  type EvaluateResponseBody,
  type EvidenceRequest,
  type GovernanceResult,
  type GovernanceService,
  type InstallScanRequest,
  type ResolveApprovalRequest,
  wireErrorBody,
} from '@helios/governance';
import { httpStatusFor } from '../errors/error-table.js';
import {
  type AdapterHandler,
  type AdapterReply,
  type AdapterRequest,
  type AdapterRoute,
} from './adapter-listener/adapter-routes.js';
import { REQUEST_SCHEMAS } from './request-schemas.js';

/**
 * Connects the listener to the engine: the body (for GET routes, the path parameters) is checked
 * against its route's compiled schema (400 `invalid_request` listing every problem), then handed to
 * the service, whose answer becomes an HTTP reply here (`toReply`): the library speaks no HTTP.
 */
export function adapterHandler(service: GovernanceService): AdapterHandler {
  const validators = Object.fromEntries(
    Object.entries(REQUEST_SCHEMAS).map(([route, schema]) => [route, compileJsonSchema(schema)]),
  ) as Record<AdapterRoute, ReturnType<typeof compileJsonSchema>>;

  return (request): Promise<AdapterReply> => {
    const issues = validators[request.route](
      request.route === 'session-state' ? request.params : request.body,
    );
    if (issues.length > 0)
      return Promise.resolve({
        status: httpStatusFor('invalid_request'),
        body: wireErrorBody({ error: 'invalid_request', issues }),
      });
    return answer(service, request).then(toReply);
  };
}

function answer(
  service: GovernanceService,
  { route, body, params }: AdapterRequest,
): Promise<GovernanceResult> {
  switch (route) {
    case 'evaluate':
      return service.evaluate(body as EvaluateRequest);
    case 'audit':
      return service.audit(body as AuditRequest);
    case 'install-scan':
      return service.installScan(body as InstallScanRequest);
    case 'approval-resolve':
      return service.resolveApproval(params.id ?? '', body as ResolveApprovalRequest);
    case 'evidence':
      return service.putEvidence(body as EvidenceRequest);
    case 'context':
      return service.putContext(body as ContextRequest);
    case 'session-state':
      return service.sessionState(params.session_id ?? '');
    default: {
      const unknown: never = route;
      return Promise.reject(new Error(`unrouted adapter route ${String(unknown)}`));
    }
  }
}

/**
 * The HTTP status of each answer the service gives: refusals by their wire code (the API's one error
 * table), successes by their kind (a new finalization or a stored value is 201, everything else 200).
 */
export function toReply(result: GovernanceResult): AdapterReply {
  switch (result.type) {
    case 'Error':
    case 'Refused':
      return { status: httpStatusFor(result.body.error), body: wireErrorBody(result.body) };
    case 'Decided':
      return { status: 200, body: withResolvePath(result.body) };
    case 'Finalized':
    case 'Stored':
      return { status: 201, body: result.body };
    case 'Replayed':
    case 'Resolved':
    case 'Scanned':
    case 'State':
      return { status: 200, body: result.body };
    default: {
      const unknown: never = result;
      throw new Error(`unmapped governance result ${JSON.stringify(unknown)}`);
    }
  }
}

/** An approval on the wire says where to resolve it: a path of this listener, so named here. */
function withResolvePath(body: EvaluateDecisionBody): EvaluateDecisionBody | EvaluateResponseBody {
  const approval = body.approval;
  if (approval === undefined) return body;
  return { ...body, approval: { ...approval, resolve_path: `/approval/${approval.id}/resolve` } };
}
