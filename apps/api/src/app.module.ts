import { type DynamicModule, Module } from '@nestjs/common';
import { LoggerModule } from 'nestjs-pino';
import { type DestinationStream } from 'pino';
import { AdminModule } from './admin/admin.module.js';
import { AuthModule, type AuthModuleOptions } from './auth/auth.module.js';
import { type HeliosConfig } from './config/config.schema.js';
import { ConfigModule } from './config/config.module.js';
import { ErrorsModule } from './errors/errors.module.js';
import { GovernanceModule, type GovernanceModuleOptions } from './governance/governance.module.js';
import { HealthModule } from './health/health.module.js';
import { LifecycleModule } from './lifecycle/lifecycle.module.js';
import { loggerOptions } from './logging/logger-options.js';
import { PersistenceModule } from './persistence/persistence.module.js';
import { ProvidersModule } from './providers/providers.module.js';
import { SandboxModule } from './sandbox/sandbox.module.js';
import { SessionsModule } from './sessions/sessions.module.js';
import { type SessionsModuleOptions } from './sessions/sessions.tokens.js';

export interface AppModuleOptions {
  readonly config: HeliosConfig;
  readonly env: NodeJS.ProcessEnv;
  readonly governance: GovernanceModuleOptions;
  /** Where every log line goes instead of stdout (tests read them). */
  readonly logDestination?: DestinationStream;
  /** In-process seams of the runtime API: a deployer's own authenticator, scripted models. */
  readonly runtime?: RuntimeOptions;
}

export type RuntimeOptions = AuthModuleOptions & SessionsModuleOptions;

/**
 * The root: one feature module per domain. Nest initialises the deepest module first (persistence
 * before governance) and tears down in the reverse order (the database closes last).
 */
@Module({})
export class AppModule {
  static forRoot(options: AppModuleOptions): DynamicModule {
    return {
      module: AppModule,
      imports: [
        LoggerModule.forRoot(loggerOptions(options.config.log.level, options.logDestination)),
        ConfigModule.forRoot(options.config, options.env),
        ErrorsModule,
        LifecycleModule,
        PersistenceModule,
        HealthModule,
        GovernanceModule.forRoot(options.governance),
        AuthModule.forRoot({ authenticator: options.runtime?.authenticator }),
        ProvidersModule,
        SandboxModule,
        SessionsModule.forRoot({ scriptedModels: options.runtime?.scriptedModels }),
        AdminModule,
      ],
    };
  }
}
