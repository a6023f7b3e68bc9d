import { type ArgumentsHost, BadRequestException, Catch, type ExceptionFilter, Inject } from '@nestjs/common';
import { type FastifyReply } from 'fastify';
import { type Authenticator } from '../../auth/authentication.js';
import { AUTHENTICATOR } from '../../auth/auth.tokens.js';
import { RuntimeRefusal } from '../../auth/refusals.js';

/**
 * The runtime routes' refusals in their fixed shape, `{"error": CODE, "message": …}`: RuntimeRefusal
 * with its headers (a 401 always carries the challenge), and the ValidationPipe's 400 as
 * `INVALID_REQUEST` naming the fields at fault (never their values). The body was read by then, so
 * the connection is kept. Library errors go on to the global filter and the one error table.
 */
@Catch(RuntimeRefusal, BadRequestException)
export class RuntimeExceptionFilter implements ExceptionFilter<RuntimeRefusal | BadRequestException> {
  constructor(@Inject(AUTHENTICATOR) private readonly authenticator: Authenticator) {}

  catch(error: RuntimeRefusal | BadRequestException, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    const refusal = error instanceof RuntimeRefusal ? error : invalidRequest(error);
    const headers: Record<string, string> = { ...refusal.headers };
    if (refusal.code === 'UNAUTHENTICATED') headers['www-authenticate'] ??= this.authenticator.challenge;
    void reply.code(refusal.status).headers(headers).send({ error: refusal.code, message: refusal.message });
  }
}

function invalidRequest(error: BadRequestException): RuntimeRefusal {
  const response = error.getResponse();
  const messages =
    typeof response === 'object' && response !== null && 'message' in response
      ? (response as { message: unknown }).message
      : error.message;
  const text = Array.isArray(messages) ? messages.map(String).join('; ') : String(messages);
  return new RuntimeRefusal('INVALID_REQUEST', {}, text);
}
