import { STATUS_CODES } from 'node:http';
import { type FastifyReply, type FastifyRequest } from 'fastify';
import {
  answerOnSocket,
  clientErrorStatus,
  frameworkErrorStatus,
  type ClientError,
  type RefusedStatus,
} from './client-errors.js';

const MESSAGES: Readonly<Record<RefusedStatus, string>> = {
  400: 'Malformed request',
  408: 'Request not received in time',
  414: 'Request URI too long',
  431: 'Request headers too large',
};

/** Nest's error shape (`{"message","error","statusCode"}`), never echoing the refused path or header. */
export function nestErrorBody(status: RefusedStatus): {
  message: string;
  error: string;
  statusCode: RefusedStatus;
} {
  return { message: MESSAGES[status], error: STATUS_CODES[status] ?? 'Error', statusCode: status };
}

/**
 * Fastify options that answer what its router and Node's parser refuse before Nest sees a request, in
 * Nest's shape. Replaces the adapter's default `frameworkErrors`, whose only extra is the security-headers
 * hook of `app.useSecurityHeaders()`, which this API does not use.
 */
export const mainApiRefusals = {
  frameworkErrors: (error: { code?: string }, _request: FastifyRequest, reply: FastifyReply): void => {
    const status = frameworkErrorStatus(error);
    void reply.code(status).send(nestErrorBody(status));
  },
  clientErrorHandler: (error: ClientError, socket: Parameters<typeof answerOnSocket>[0]): void => {
    if (error.code === 'ECONNRESET') return void socket.destroy();
    const status = clientErrorStatus(error);
    answerOnSocket(socket, status, JSON.stringify(nestErrorBody(status)));
  },
};
