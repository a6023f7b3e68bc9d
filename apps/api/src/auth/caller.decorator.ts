import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { type FastifyRequest } from 'fastify';
import { type Identity, identityOf } from './identity.js';
import { RuntimeRefusal } from './refusals.js';

/**
 * The authenticated caller of a runtime route, attached by the admission gate. A route without one was
 * not gated (a wiring bug): refused rather than served as nobody.
 */
export const Caller = createParamDecorator((_data: unknown, context: ExecutionContext): Identity => {
  const identity = identityOf(context.switchToHttp().getRequest<FastifyRequest>().raw);
  if (identity === undefined) throw new RuntimeRefusal('UNAUTHENTICATED');
  return identity;
});
