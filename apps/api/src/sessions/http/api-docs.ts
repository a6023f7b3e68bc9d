import { applyDecorators } from '@nestjs/common';
import { ApiBearerAuth, ApiResponse, ApiSecurity } from '@nestjs/swagger';
import { ErrorBodyDto } from './dto/session-responses.dto.js';

/** Security scheme names, declared on the document in swagger/swagger.ts. */
export const BEARER_SCHEME = 'bearer';
export const TRUSTED_PROXY_SCHEME = 'trustedProxy';

const REFUSALS: Readonly<Record<number, string>> = {
  400: 'Invalid body (INVALID_REQUEST, AGENT_NOT_FOUND, INVALID_ARGUMENT).',
  401: 'Missing, malformed, expired, revoked or forged credential (UNAUTHENTICATED); WWW-Authenticate carries the challenge.',
  404: "Unknown session, or another principal's (SESSION_NOT_FOUND).",
  409: 'The session is closed (SESSION_CLOSED).',
  413: 'Body over sessions.maxRequestBytes (REQUEST_TOO_LARGE); a declared one is refused unread.',
  429: 'Too many requests in flight for this caller (TOO_MANY_REQUESTS, Retry-After: 5).',
  503: 'Too many requests in flight on the server (SERVER_BUSY).',
};

/** Every runtime route: its security schemes and the refusals any of them can answer. */
export function RuntimeRoute(...extra: number[]): MethodDecorator & ClassDecorator {
  const statuses = [...new Set([401, 429, 503, ...extra])].sort();
  return applyDecorators(
    ApiBearerAuth(BEARER_SCHEME),
    ApiSecurity(TRUSTED_PROXY_SCHEME),
    ...statuses.map((status) =>
      ApiResponse({ status, description: REFUSALS[status] ?? 'Refused.', type: ErrorBodyDto }),
    ),
  );
}

/** A refusal specific to one route, documented with its own wording. */
export function Refusal(status: number, description: string): MethodDecorator & ClassDecorator {
  return ApiResponse({ status, description, type: ErrorBodyDto });
}
