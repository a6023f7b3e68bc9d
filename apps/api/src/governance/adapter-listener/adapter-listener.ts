import { jsonNestingExceeds } from '@helios/core';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import { ADAPTER_ROUTES, type AdapterHandler, type RouteSpec, type TokenScope } from './adapter-routes.js';
import { bearerToken, tokenMatcher, type AdapterTokens, type TokenMatcher } from './adapter-tokens.js';

export interface AdapterListenerOptions {
  readonly host: string;
  readonly port: number;
  readonly tokens: AdapterTokens;
  /** The governance service; without it routed calls answer 503 governance_unavailable. */
  readonly handler?: AdapterHandler;
  /** Request body cap (the seed's 1 MiB). */
  readonly bodyLimitBytes?: number;
  /** Deepest nesting of objects and arrays a body may have (400 json_too_deep beyond it). */
  readonly maxJsonDepth?: number;
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
 * Far beyond any tool call's arguments or definition, far below what overflows the stack: a body within
 * 1 MiB can nest ~500,000 levels, and every recursive walk of it (JSON.stringify first) would throw.
 */
export const DEFAULT_MAX_JSON_DEPTH = 256;

/**
 * The governance adapter API on its own Fastify listener (not Nest: it is a hot path that validates with
 * compiled JSON Schemas). Every request passes, in this order: (1) any `Origin` header or an OPTIONS
 * request → 403; (2) a body over the cap → 413 `request_body_too_large`; (3) the bearer token of the
 * route's scope → 401 (except GET /healthz); (4) JSON parsing → 400 `invalid_json`, or 400
 * `json_too_deep` past the nesting cap; then the route.
 * A fault anywhere → 500 `{"error":"Internal server error"}` with no detail.
 */
export async function startAdapterListener(options: AdapterListenerOptions): Promise<AdapterListener> {
  const app = Fastify({
    logger: false,
    bodyLimit: options.bodyLimitBytes ?? MIB,
    return503OnClosing: true,
    // Session and ticket ids in paths may be as long as the bodies allow (Fastify's default is 100).
    routerOptions: { maxParamLength: MAX_PATH_PARAM_LENGTH },
  });
  // Bodies stay raw text until the caller is authenticated: unauthenticated JSON is never parsed.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  // Hooks take callbacks rather than being async: no promise per request on the hot path.
  app.addHook('onRequest', (request, reply, done) => {
    if (request.headers.origin !== undefined || request.method === 'OPTIONS') {
      void reply.code(403).send({ error: 'Forbidden' });
      return;
    }
    done();
  });

  app.setErrorHandler((error: { statusCode?: number; code?: string }, request, reply) => {
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE')
      return reply.code(413).send({ error: 'request_body_too_large' });
    options.onFault?.(error, request.url);
    return reply.code(500).send({ error: 'Internal server error' });
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send({ error: 'not_found' }));

  const matchers: Readonly<Record<TokenScope, TokenMatcher>> = {
    adapter: tokenMatcher(options.tokens.adapter),
    sdk: tokenMatcher(options.tokens.sdk),
  };
  app.get('/healthz', async () => ({ status: 'ok' }));
  for (const spec of ADAPTER_ROUTES) {
    app.route({
      method: spec.method,
      url: spec.url,
      // Auth runs first thing in the handler (after the body-size check, before JSON parsing): one hook
      // stage fewer per request than a preValidation hook.
      handler: (request, reply) => {
        if (!authenticated(request, spec, matchers)) return reply.code(401).send({ error: 'Unauthorized' });
        return route(request, reply, spec, options);
      },
    });
  }

  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  return {
    url: `http://${options.host.includes(':') ? `[${options.host}]` : options.host}:${port}`,
    close: () => app.close(),
  };
}

function authenticated(
  request: FastifyRequest,
  spec: RouteSpec,
  matchers: Readonly<Record<TokenScope, TokenMatcher>>,
): boolean {
  return matchers[spec.scope](bearerToken(request.headers.authorization));
}

async function route(
  request: FastifyRequest,
  reply: FastifyReply,
  spec: RouteSpec,
  options: AdapterListenerOptions,
): Promise<FastifyReply> {
  let body: unknown = undefined;
  if (spec.method === 'POST') {
    const maxDepth = options.maxJsonDepth ?? DEFAULT_MAX_JSON_DEPTH;
    if (typeof request.body === 'string' && jsonNestingExceeds(request.body, maxDepth))
      return reply.code(400).send({ error: 'json_too_deep', max_depth: maxDepth });
    const parsed = parseJson(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: 'invalid_json' });
    body = parsed.value;
  }
  if (!options.handler) return reply.code(503).send({ error: 'governance_unavailable' });
  const answer = await options.handler({
    route: spec.route,
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
