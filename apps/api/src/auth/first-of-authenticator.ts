import { type Authentication, type AuthenticationRequest, type Authenticator } from './authentication.js';

/**
 * Several authenticators (static tokens, JWT, a trusted proxy): the first that accepts the request
 * wins; a 401 names every distinct challenge (RFC 9110 allows a list in one WWW-Authenticate).
 */
export class FirstOfAuthenticator implements Authenticator {
  readonly challenge: string;

  constructor(private readonly authenticators: readonly Authenticator[]) {
    this.challenge = [...new Set(authenticators.map((a) => a.challenge))].join(', ');
  }

  async authenticate(request: AuthenticationRequest): Promise<Authentication | undefined> {
    for (const authenticator of this.authenticators) {
      const authentication = await authenticator.authenticate(request);
      if (authentication !== undefined) return authentication;
    }
    return undefined;
  }
}
