/**
 * What every authenticator of the runtime API returns, and the interface a deployer's own verifier (mTLS,
 * another token format) implements to plug in. Sessions belong to a Principal: its tenant and subject.
 */
import { type IncomingHttpHeaders } from 'node:http';

export interface Principal {
  readonly tenant: string;
  readonly subject: string;
}

export interface Authentication {
  readonly principal: Principal;
  readonly roles: readonly string[];
  /** Epoch ms at which the credential stops being valid; absent: it does not expire. */
  readonly expiresAt?: number;
  /** Aborts when the credential is revoked; absent: it cannot be. */
  readonly revoked?: AbortSignal;
}

/** What an authenticator may look at: the headers and the connection's peer, never the body. */
export interface AuthenticationRequest {
  readonly headers: IncomingHttpHeaders;
  /** Every value of every header, duplicates kept apart (Node joins them in `headers`). */
  readonly headersDistinct: NodeJS.Dict<string[]>;
  /** The socket's peer address (not a forwarded header), IPv4-mapped addresses unwrapped. */
  readonly remoteAddress: string | undefined;
}

export interface Authenticator {
  /**
   * The caller's authentication, or undefined for a request without a credential this authenticator
   * accepts (missing, malformed, expired, forged): the API answers 401 with `challenge`.
   */
  authenticate(request: AuthenticationRequest): Promise<Authentication | undefined>;
  /** The `WWW-Authenticate` value of a 401, e.g. `Bearer realm="helios"`. */
  readonly challenge: string;
}

/** One string per principal, for maps; tenant and subject cannot run into each other. */
export function principalKey(principal: Principal): string {
  return JSON.stringify([principal.tenant, principal.subject]);
}

/** `::ffff:10.0.0.5` (an IPv4 client of a dual-stack socket) is `10.0.0.5`. */
export function plainAddress(address: string | undefined): string | undefined {
  return address?.startsWith('::ffff:') && address.includes('.') ? address.slice(7) : address;
}

/** A tenant or subject: 1-256 characters, none of them a control character. */
export function isPrincipalPart(value: unknown): value is string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 256) return false;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return false;
  }
  return true;
}
