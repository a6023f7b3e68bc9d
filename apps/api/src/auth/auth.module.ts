import { type DynamicModule, Module } from '@nestjs/common';
import { type HeliosConfig } from '../config/config.schema.js';
import { HELIOS_CONFIG } from '../config/config.tokens.js';
import { AdmissionGate } from './admission-gate.js';
import { type Authenticator } from './authentication.js';
import { AUTHENTICATOR } from './auth.tokens.js';
import { buildAuthenticator } from './build-authenticator.js';

export interface AuthModuleOptions {
  /** A deployer's own verifier (mTLS, another token format); replaces what `auth:` configures. */
  readonly authenticator?: Authenticator;
}

/**
 * Who calls the runtime API: the Authenticator built from `auth:` (static tokens, bearer JWT, a trusted
 * proxy; or the local principal on a loopback bind) and the admission gate that authenticates and admits
 * every runtime request before its body is read.
 */
@Module({})
export class AuthModule {
  static forRoot(options: AuthModuleOptions = {}): DynamicModule {
    return {
      module: AuthModule,
      // Every runtime route (sessions now, the admin API later) answers 401 with its challenge.
      global: true,
      providers: [
        {
          provide: AUTHENTICATOR,
          inject: [HELIOS_CONFIG],
          useFactory: (config: HeliosConfig) => buildAuthenticator(config, options.authenticator),
        },
        AdmissionGate,
      ],
      exports: [AUTHENTICATOR, AdmissionGate],
    };
  }
}
