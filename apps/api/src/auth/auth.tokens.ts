/** The runtime API's one Authenticator (built from `auth:`, or a deployer's own through the app's options). */
export const AUTHENTICATOR = Symbol('AUTHENTICATOR');
