import { compileJsonSchema } from '@helios/core';
import {
  type AuditRequest,
  type ContextRequest,
  type EvaluateRequest,
  type EvidenceRequest,
  type GovernanceService,
  type InstallScanRequest,
  type ResolveApprovalRequest,
} from '@helios/governance';
import {
  type AdapterHandler,
  type AdapterReply,
  type AdapterRoute,
} from './adapter-listener/adapter-routes.js';
import { REQUEST_SCHEMAS } from './request-schemas.js';

/**
 * Connects the listener to the engine: the body (for GET routes, the path parameters) is checked
 * against its route's compiled schema (400 `invalid_request` listing every problem), then handed to
 * the service, whose `{ status, body }` goes to the wire as it is.
 */
export function adapterHandler(service: GovernanceService): AdapterHandler {
  const validators = Object.fromEntries(
    Object.entries(REQUEST_SCHEMAS).map(([route, schema]) => [route, compileJsonSchema(schema)]),
  ) as Record<AdapterRoute, ReturnType<typeof compileJsonSchema>>;

  // Not `async`: the service's own promise is handed on, without another wrapped around it.
  return ({ route, body, params }): Promise<AdapterReply> => {
    const issues = validators[route](route === 'session-state' ? params : body);
    if (issues.length > 0)
      return Promise.resolve({ status: 400, body: { error: 'invalid_request', issues } });
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
  };
}
