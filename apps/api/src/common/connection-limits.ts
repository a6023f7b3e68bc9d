import { type Server } from 'node:net';
import { type ServerOptions } from 'node:http';
import { type ConnectionLimits } from '../config/config.schema.js';

/** Fastify's server options for one listener's timeouts (its own names, and Node's for the rest). */
export interface TimeoutOptions {
  readonly requestTimeout: number;
  readonly keepAliveTimeout: number;
  readonly http: ServerOptions;
}

/**
 * Node checks the headers and request timeouts only every `connectionsCheckingInterval` (30 s by
 * default, which would double a 30 s request timeout); a quarter of the headers timeout, at most 1 s,
 * keeps a timeout within a second of its setting for the cost of one walk over the open connections.
 */
export function timeoutOptions(limits: ConnectionLimits): TimeoutOptions {
  const checkEveryMs = Math.max(25, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)));
  return {
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // Fastify hands these to http.createServer, which checks headersTimeout <= requestTimeout itself.
    http: {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: checkEveryMs,
    },
  };
}

/** Past the cap Node closes a new connection as soon as it is accepted: its descriptor is freed at once. */
export function capConnections(server: Server, limits: ConnectionLimits): void {
  server.maxConnections = limits.maxConnections;
}
