import { type IncomingHttpHeaders } from 'node:http';

/** RFC 6750's b64token: what a bearer credential may be made of. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/** The token of `Authorization: Bearer <token>`; undefined when absent or malformed. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const value = headers.authorization;
  if (typeof value !== 'string' || value.length > 16_384) return undefined;
  return BEARER.exec(value)?.[1];
}

export const BEARER_CHALLENGE = 'Bearer realm="helios"';
