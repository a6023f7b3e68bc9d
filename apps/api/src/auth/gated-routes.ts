import { type FastifyRequest } from 'fastify';

/**
 * The routes the admission gate guards: the runtime API. Matched on the route pattern Fastify found
 * (so an unmatched path is Fastify's own 404, unauthenticated as everywhere else).
 */
export function isGatedRoute(request: FastifyRequest): boolean {
  const url = request.routeOptions.url;
  if (url === undefined) return false;
  return url === '/v1/sessions' || url.startsWith('/v1/sessions/') || url === '/v1/agents';
}
