import { type Authentication, type Authenticator } from './authentication.js';
import { BEARER_CHALLENGE } from './bearer.js';

/** The one principal of a server without `auth:` (accepted on a loopback bind only). */
export const LOCAL_PRINCIPAL = Object.freeze({ tenant: 'local', subject: 'local' });

const LOCAL: Authentication = Object.freeze({ principal: LOCAL_PRINCIPAL, roles: Object.freeze(['admin']) });

/** `withoutAuthentication`: every request is the local principal. */
export class LocalAuthenticator implements Authenticator {
  readonly challenge = BEARER_CHALLENGE;

  authenticate(): Promise<Authentication> {
    return Promise.resolve(LOCAL);
  }
}
