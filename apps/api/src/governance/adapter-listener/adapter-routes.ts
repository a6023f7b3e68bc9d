/**
 * The adapter listener's surface, exactly the reference's paths, so adapters written for it work
 * unchanged. Governance routes take the adapter token; SDK routes the SDK token; /healthz none.
 */
export type AdapterRoute =
  'evaluate' | 'audit' | 'install-scan' | 'approval-resolve' | 'evidence' | 'context' | 'session-state';

export type TokenScope = 'adapter' | 'sdk';

export interface RouteSpec {
  readonly route: AdapterRoute;
  readonly method: 'GET' | 'POST';
  readonly url: string;
  readonly scope: TokenScope;
}

export const ADAPTER_ROUTES: readonly RouteSpec[] = [
  { route: 'evaluate', method: 'POST', url: '/evaluate', scope: 'adapter' },
  { route: 'audit', method: 'POST', url: '/audit', scope: 'adapter' },
  { route: 'install-scan', method: 'POST', url: '/install-scan', scope: 'adapter' },
  { route: 'approval-resolve', method: 'POST', url: '/approval/:id/resolve', scope: 'adapter' },
  { route: 'evidence', method: 'POST', url: '/evidence', scope: 'sdk' },
  { route: 'context', method: 'POST', url: '/context', scope: 'sdk' },
  { route: 'session-state', method: 'GET', url: '/session/:session_id/state', scope: 'sdk' },
];

/** One call handed to the governance service: the route, its JSON body (parsed) and path parameters. */
export interface AdapterRequest {
  readonly route: AdapterRoute;
  readonly body: unknown;
  readonly params: Readonly<Record<string, string>>;
}

/** The HTTP answer: the status the handler mapped the service's result to, and its snake_case body. */
export interface AdapterReply {
  readonly status: number;
  readonly body: unknown;
}

/** The governance service as the listener sees it; absent → every routed call is 503 governance_unavailable. */
export type AdapterHandler = (request: AdapterRequest) => Promise<AdapterReply>;
