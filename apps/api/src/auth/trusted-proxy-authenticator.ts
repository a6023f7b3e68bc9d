import { type TrustedProxyConfig } from '../config/auth.schema.js';
import {
  type Authentication,
  type AuthenticationRequest,
  type Authenticator,
  isPrincipalPart,
  plainAddress,
} from './authentication.js';

/**
 * Trusts the identity an authenticating reverse proxy asserts in `X-Authenticated-Tenant` and
 * `X-Authenticated-Subject`, only on connections whose peer is one of the configured proxy addresses;
 * from anyone else the headers are ignored (401). The proxy must strip client copies of both headers.
 */
export class TrustedProxyAuthenticator implements Authenticator {
  readonly challenge: string;
  readonly #proxies: ReadonlySet<string>;

  constructor(config: TrustedProxyConfig) {
    this.challenge = config.challenge;
    this.#proxies = new Set(config.addresses.map((address) => plainAddress(address) as string));
  }

  authenticate(request: AuthenticationRequest): Promise<Authentication | undefined> {
    const peer = plainAddress(request.remoteAddress);
    if (peer === undefined || !this.#proxies.has(peer)) return Promise.resolve(undefined);
    const tenant = single(request, 'x-authenticated-tenant');
    const subject = single(request, 'x-authenticated-subject');
    if (tenant === undefined || subject === undefined) return Promise.resolve(undefined);
    return Promise.resolve(
      Object.freeze({ principal: Object.freeze({ tenant, subject }), roles: Object.freeze([]) }),
    );
  }
}

/** The header's one value; two copies (a client's the proxy failed to strip) are refused, not joined. */
function single(request: AuthenticationRequest, name: string): string | undefined {
  const values = request.headersDistinct[name];
  if (values?.length !== 1) return undefined;
  const [value] = values;
  return isPrincipalPart(value) ? value : undefined;
}
