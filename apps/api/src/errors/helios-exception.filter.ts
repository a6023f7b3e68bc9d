import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import { HeliosError } from '@helios/core';
import { type FastifyReply } from 'fastify';
import { httpStatusFor } from './error-table.js';

/** The body of every error the API maps from a library code. */
export interface ErrorResponseBody {
  readonly error: string;
  readonly message: string;
}

/**
 * Turns a library error into its HTTP answer through the one error table: `{ error: code, message }`
 * with the table's status. A code missing from the table is our bug: 500, the message kept out of the
 * response (it may name internals) and logged instead.
 */
@Catch(HeliosError)
export class HeliosExceptionFilter implements ExceptionFilter<HeliosError> {
  private readonly logger = new Logger('Errors');

  catch(error: HeliosError, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const status = httpStatusFor(error.code);
    if (status >= 500) this.logger.error({ err: error }, `${error.code} answered ${status}`);
    const body: ErrorResponseBody =
      status === 500
        ? { error: 'internal_error', message: 'internal error' }
        : { error: error.code, message: error.message };
    void reply.status(status).send(body);
  }
}
