import { createRemoteJWKSet, type JWTPayload, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { type JwtConfig } from '../config/auth.schema.js';
import {
  type Authentication,
  type AuthenticationRequest,
  type Authenticator,
  isPrincipalPart,
} from './authentication.js';
import { BEARER_CHALLENGE, bearerToken } from './bearer.js';

const HMAC = ['HS256', 'HS384', 'HS512'];
const ASYMMETRIC = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * Bearer JWTs verified with `jose`: signature (a shared HMAC secret, or the keys of a JWKS URL, which
 * `jose` fetches and caches), `iss`, `aud`, `exp` (required: a token that never expires is refused) and
 * `nbf`. The principal is the tenant claim (`tenantClaim`, default `tenant`) and `sub`; the token's
 * expiry is the authentication's, so open streams close when it passes.
 */
export class JwtAuthenticator implements Authenticator {
  readonly challenge = BEARER_CHALLENGE;
  readonly #key: Uint8Array | JWTVerifyGetKey;
  readonly #config: JwtConfig;

  constructor(config: JwtConfig) {
    this.#config = config;
    this.#key =
      config.secret !== undefined
        ? new TextEncoder().encode(config.secret)
        : createRemoteJWKSet(new URL(config.jwksUrl as string));
  }

  async authenticate(request: AuthenticationRequest): Promise<Authentication | undefined> {
    const token = bearerToken(request.headers);
    if (token === undefined || token.split('.').length !== 3) return undefined;
    let payload: JWTPayload;
    try {
      const options = {
        issuer: this.#config.issuer,
        audience: this.#config.audience,
        algorithms: this.#config.secret !== undefined ? HMAC : ASYMMETRIC,
        clockTolerance: this.#config.clockToleranceSec,
        requiredClaims: ['exp', 'sub'],
      };
      // Two overloads (a key, a key getter) that TypeScript will not pick from a union.
      payload =
        this.#key instanceof Uint8Array
          ? (await jwtVerify(token, this.#key, options)).payload
          : (await jwtVerify(token, this.#key, options)).payload;
    } catch {
      return undefined; // forged, expired, wrong issuer or audience, unreachable JWKS: all a 401
    }
    const tenant = payload[this.#config.tenantClaim];
    const subject = payload.sub;
    if (!isPrincipalPart(tenant) || !isPrincipalPart(subject)) return undefined;
    const roles = Array.isArray(payload.roles)
      ? payload.roles.filter((role): role is string => typeof role === 'string')
      : [];
    return Object.freeze({
      principal: Object.freeze({ tenant, subject }),
      roles: Object.freeze(roles),
      expiresAt: (payload.exp as number) * 1000,
    });
  }
}
