import { type HeliosConfig } from '../config/config.schema.js';
import { ConfigError } from '../config/config-error.js';
import { type Authenticator } from './authentication.js';
import { FirstOfAuthenticator } from './first-of-authenticator.js';
import { JwtAuthenticator } from './jwt-authenticator.js';
import { LocalAuthenticator } from './local-authenticator.js';
import { isLoopbackHost } from './loopback.js';
import { StaticTokenAuthenticator } from './static-token-authenticator.js';
import { TrustedProxyAuthenticator } from './trusted-proxy-authenticator.js';

/**
 * The runtime API's authenticator: a deployer's own (`custom`) wins; else those `auth:` configures, in
 * the order static tokens, JWT, trusted proxy. Without either, one local principal — accepted only on a
 * loopback bind: a server reachable from other machines with no authenticator refuses to start.
 */
export function buildAuthenticator(config: HeliosConfig, custom?: Authenticator): Authenticator {
  if (custom !== undefined) return custom;
  const auth = config.auth;
  if (auth === undefined) {
    if (!isLoopbackHost(config.server.host)) {
      throw new ConfigError('helios.yaml', [
        {
          path: 'auth',
          message:
            `required when server.host (${config.server.host}) is not a loopback address: ` +
            'configure auth.tokens, auth.jwt or auth.trustedProxy',
        },
      ]);
    }
    return new LocalAuthenticator();
  }
  const authenticators: Authenticator[] = [];
  if (auth.tokens) authenticators.push(new StaticTokenAuthenticator(auth.tokens));
  if (auth.jwt) authenticators.push(new JwtAuthenticator(auth.jwt));
  if (auth.trustedProxy) authenticators.push(new TrustedProxyAuthenticator(auth.trustedProxy));
  return authenticators.length === 1
    ? (authenticators[0] as Authenticator)
    : new FirstOfAuthenticator(authenticators);
}
