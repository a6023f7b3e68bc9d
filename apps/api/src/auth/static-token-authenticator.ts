import { createHash, timingSafeEqual } from 'node:crypto';
import { type StaticTokenConfig } from '../config/auth.schema.js';
import { type Authentication, type AuthenticationRequest, type Authenticator } from './authentication.js';
import { BEARER_CHALLENGE, bearerToken } from './bearer.js';

interface Entry {
  readonly digest: Buffer;
  readonly authentication: Authentication;
}

/**
 * Static API tokens from `auth.tokens`, presented as `Authorization: Bearer <token>`. Tokens are held as
 * SHA-256 digests and every one is compared in constant time on every request (no early exit), so
 * neither the time taken nor the log says which token came close; a token is never logged.
 */
export class StaticTokenAuthenticator implements Authenticator {
  readonly challenge = BEARER_CHALLENGE;
  readonly #entries: readonly Entry[];

  constructor(tokens: readonly StaticTokenConfig[]) {
    this.#entries = tokens.map((entry) => ({
      digest: digest(entry.token),
      authentication: Object.freeze({
        principal: Object.freeze({ tenant: entry.tenant, subject: entry.subject }),
        roles: Object.freeze([...entry.roles]),
      }),
    }));
  }

  authenticate(request: AuthenticationRequest): Promise<Authentication | undefined> {
    const token = bearerToken(request.headers);
    if (token === undefined) return Promise.resolve(undefined);
    const presented = digest(token);
    let found: Authentication | undefined;
    for (const entry of this.#entries) {
      if (timingSafeEqual(entry.digest, presented) && found === undefined) found = entry.authentication;
    }
    return Promise.resolve(found);
  }
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
