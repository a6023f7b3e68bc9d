import { jsonNestingExceeds } from '@helios/core';
import { DEFAULT_GOVERNANCE_LIMITS, wireErrorBody, type TransportErrorCode } from '@helios/governance';
import Fastify, { type FastifyReply, type FastifyRequest, type onRequestHookHandler } from 'fastify';
import {
  answerOnSocket,
  clientErrorStatus,
  errorCode,
  frameworkErrorStatus,
  rawCrossOriginRefusal,
  rawPacket,
  type ClientError,
} from '../../common/client-errors.js';
import { capConnections, timeoutOptions } from '../../common/connection-limits.js';
import { httpUrl } from '../../common/http-url.js';
import { DEFAULT_CONNECTION_LIMITS, type ConnectionLimits } from '../../config/config.schema.js';
import { ADAPTER_ROUTES, type AdapterHandler, type RouteSpec } from './adapter-routes.js';
import { bearerToken, tokenMatcher, type AdapterTokens, type TokenMatcher } from './adapter-tokens.js';

export interface AdapterListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly tokens: AdapterTokens;
  /** The governance service; without it routed calls answer 503 governance_unavailable. */
  readonly handler?: AdapterHandler;
  /** Request body cap (the seed's 1 MiB). */
  readonly bodyLimitBytes?: number;
  /** Deepest nesting of objects and arrays a body may have (400 json_too_deep beyond it; the engine's cap). */
  readonly maxJsonDepth?: number;
  /** Timeouts and connection cap (the documented `governance.adapterApi` defaults when absent). */
  readonly connectionLimits?: ConnectionLimits;
  /** Where faults are reported; responses never carry their detail. */
  readonly onFault?: (error: unknown, route: string) => void;
}

export interface AdapterListener {
  readonly url: string;
  close(): Promise<void>;
}

const MIB = 1024 * 1024;
const MAX_PATH_PARAM_LENGTH = 1024;

/**
 * The governance adapter API on its own Fastify listener (not Nest: it is a hot path that validates with
 * compiled JSON Schemas). Every request passes, in this order: (1) an `Origin` header, then an OPTIONS
 * request → 403; (2) a request line, path or headers the parser or router refuses → 400 `bad_request`,
 * 414 `uri_too_long`, 431 `request_header_fields_too_large`; (3) the bearer token of the route's scope →
 * 401 (except GET /healthz; an unknown path takes the scope the reference gives it), decided on the
 * headers alone before a byte of body is read; (4) a body over the cap → 413 `request_body_too_large`;
 * (5) JSON parsing → 400 "Invalid JSON", or 400 `json_too_deep` past the nesting cap; then the route. A
 * 403 or 401 closes the connection, so the body a refused caller announced is never read. A request not
 * received within the timeouts → 408 `request_timeout`, connection closed.
 * A fault anywhere → 500 "Internal server error" with no detail. Refusals the reference words as prose
 * carry its prose in `error` and our code in `code` (`wireErrorBody`).
 */
export async function startAdapterListener(options: AdapterListenerOptions): Promise<AdapterListener> {
  const limits = options.connectionLimits ?? DEFAULT_CONNECTION_LIMITS;
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimitBytes ?? MIB,
    return503OnClosing: true,
    ...timeoutOptions(limits),
    // Session and ticket ids in paths may be as long as the bodies allow (Fastify's default is 100).
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
    // No hook runs for these: the Origin rule is applied here too, so it stays the first answer.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const crossOrigin = crossOriginRefusal(request);
      if (crossOrigin !== undefined) return refuse(reply, 403, crossOrigin);
      const status = frameworkErrorStatus(error);
      return void reply.code(status).send({ error: errorCode(status) });
    },
    // The parser gave up before a request existed: only its raw bytes tell whether Origin was sent.
    clientErrorHandler: (error: ClientError, socket) => {
      if (error.code === 'ECONNRESET') return void socket.destroy();
      const crossOrigin = rawCrossOriginRefusal(rawPacket(error));
      if (crossOrigin !== undefined)
        return answerOnSocket(socket, 403, JSON.stringify(wireErrorBody({ error: crossOrigin })));
      const status = clientErrorStatus(error);
      return answerOnSocket(socket, status, JSON.stringify({ error: errorCode(status) }));
    },
  });
  capConnections(app.server, limits);
  // Bodies stay raw text until the caller is authenticated: unauthenticated JSON is never parsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // Hooks take callbacks rather than being async: no promise per request on the hot path.
  const unknownPathScope = unknownPathTokens(options.tokens);
  app.addHook('onRequest', (request, reply, done) => {
    const crossOrigin = crossOriginRefusal(request);
    if (crossOrigin !== undefined) return refuse(reply, 403, crossOrigin);
    // As the reference: an unknown path answers 404 only to a caller holding the token of its scope.
    if (request.is404 && !unknownPathScope(request)) return refuse(reply, 401, 'unauthorized');
    done();
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send({ error: 'request_body_too_large' });
    // Fastify's own refusals of a malformed request (content-length mismatch, …) are the client's doing.
    const status = error.statusCode ?? 500;
    if (error.code?.startsWith('FST_ERR_') && status >= 400 && status < 500)
      return reply.code(status).send({ error: errorCode(status) });
    options.onFault?.(error, request.routeOptions.url ?? 'unrouted');
    return reply.code(500).send(wireErrorBody({ error: 'internal_error' }));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));

  app.get('/healthz', async () => ({ status: 'ok' }));
  for (const spec of ADAPTER_ROUTES) {
    app.route({
      method: spec.method,
      url: spec.url,
      // On the headers alone, before any body byte is read: an unauthenticated caller cannot make us
      // buffer (or wait for) the body it announced.
      onRequest: requireToken(tokenMatcher(options.tokens[spec.scope])),
      handler: (request, reply) => route(request, reply, spec.method, spec.route, options),
    });
  }

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: httpUrl(options.host, port),
    close: () => app.close(),
  };
}

/** An `Origin` header first, then OPTIONS: the reference's order, so its two texts come out the same. */
function crossOriginRefusal(request: FastifyRequest): 'cross_origin_request' | 'cors_preflight' | undefined {
  if (request.headers.origin !== undefined) return 'cross_origin_request';
  return request.method === 'OPTIONS' ? 'cors_preflight' : undefined;
}

function requireToken(matches: TokenMatcher): onRequestHookHandler {
  return (request, reply, done) => {
    if (!matches(bearerToken(request.headers.authorization))) return refuse(reply, 401, 'unauthorized');
    done();
  };
}

/**
 * Whether a request for an unknown path holds the token the reference would ask of it: the adapter token
 * under the governance paths (any method), none for /healthz, the SDK token everywhere else.
 */
function unknownPathTokens(tokens: AdapterTokens): (request: FastifyRequest) => boolean {
  const adapter = tokenMatcher(tokens.adapter);
  const sdk = tokenMatcher(tokens.sdk);
  return (request) => {
    const path = request.url.split('?', 1)[0] ?? '';
    if (path === '/healthz') return true;
    const governance =
      path === '/evaluate' || path === '/audit' || path === '/install-scan' || path.startsWith('/approval/');
    return (governance ? adapter : sdk)(bearerToken(request.headers.authorization));
  };
}

/** Answers and closes the connection: the body the caller announced is never read or waited for. */
function refuse(reply: FastifyReply, status: 401 | 403, error: TransportErrorCode): void {
  void reply.code(status).header('connection', 'close').send(wireErrorBody({ error }));
}

async function route(
  request: FastifyRequest,
  reply: FastifyReply,
  method: RouteSpec['method'],
  adapterRoute: RouteSpec['route'],
  options: AdapterListenerOptions,
): Promise<FastifyReply> {
  let body: unknown = undefined;
  if (method === 'POST') {
    const maxDepth = options.maxJsonDepth ?? DEFAULT_GOVERNANCE_LIMITS.maxJsonDepth;
    if (typeof request.body === 'string' && jsonNestingExceeds(request.body, maxDepth))
      return reply.code(400).send({ error: 'json_too_deep', max_depth: maxDepth });
    const parsed = parseJson(request.body);
    if (!parsed.ok) return reply.code(400).send(wireErrorBody({ error: 'invalid_json' }));
    body = parsed.value;
  }
  if (!options.handler) return reply.code(503).send({ error: 'governance_unavailable' });
  const answer = await options.handler({
    route: adapterRoute,
    body,
    params: request.params as Record<string, string>,
  });
  return reply.code(answer.status).send(answer.body);
}

function parseJson(raw: unknown): { ok: true; value: unknown } | { ok: false } {
  // An empty or blank body is not JSON either: JSON.parse throws on it.
  if (typeof raw !== 'string') return { ok: false };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch {
    return { ok: false };
  }
}
