import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { RequestMethod } from '@nestjs/common';
import { type Params } from 'nestjs-pino';
import { type DestinationStream } from 'pino';
import { type Options } from 'pino-http';
import { serializeError } from './error-serializer.js';

/** A caller-supplied request id is kept only if it is short and plain; anything else gets a fresh one. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`: the id Fastify, pino-http and the `x-request-id` response header all share. */
export function requestId(req: { headers: IncomingHttpHeaders }): string {
  const header = req.headers['x-request-id'];
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/** Headers that carry credentials: never written to a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["proxy-authorization"]',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

/**
 * JSON logs, one line per request with its id; credentials and the values of failed SQL statements
 * never reach a log line. `destination` (tests) replaces stdout.
 */
export function loggerOptions(level: string, destination?: DestinationStream): Params {
  const options: Options = {
    level,
    customProps: () => ({ service: 'helios-api' }),
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
    // Probes would drown the log at info level.
    customLogLevel: (req, res, error) => {
      const probe = req.url === '/healthz' || req.url === '/readyz';
      // A 503 from /readyz is the probe doing its job (starting, draining, migrations pending).
      if (probe) return res.statusCode >= 500 ? 'warn' : 'debug';
      if (error || res.statusCode >= 500) return 'error';
      return res.statusCode >= 400 ? 'warn' : 'info';
    },
  };
  return {
    // Nest 12 on Fastify matches every route only with this pattern (nestjs-pino's default misses).
    forRoutes: [{ path: '/{*splat}', method: RequestMethod.ALL }],
    pinoHttp: destination ? [options, destination] : options,
  };
}
