import { type DynamicModule, Module } from '@nestjs/common';
import { type Clock } from '@helios/governance';
import { type HeliosConfig } from '../config/config.schema.js';
import { HELIOS_CONFIG, PROCESS_ENV } from '../config/config.tokens.js';
import { PersistenceModule } from '../persistence/persistence.module.js';
import { GovernanceHost } from './governance-host.service.js';
import { prepareGovernance } from './governance-policy.js';
import { GOVERNANCE_CLOCK, GOVERNANCE_POLICY } from './governance.tokens.js';

export interface GovernanceModuleOptions {
  /** The engine's time (TTLs, windows, deadlines), so tests cross them without waiting. */
  readonly clock?: Clock;
}

/**
 * The tool-call policy decision point: the compiled policy (checked while the app is built, before the
 * database opens, so an invalid one never serves a request), the engine over its PostgreSQL stores,
 * its sweeps and the adapter API listener — a separate Fastify instance, documented at
 * `/docs/adapter-json`.
 */
@Module({})
export class GovernanceModule {
  static forRoot(options: GovernanceModuleOptions = {}): DynamicModule {
    return {
      module: GovernanceModule,
      imports: [PersistenceModule],
      providers: [
        {
          provide: GOVERNANCE_POLICY,
          inject: [HELIOS_CONFIG, PROCESS_ENV],
          useFactory: (config: HeliosConfig, env: NodeJS.ProcessEnv) =>
            prepareGovernance(config, env) ?? null,
        },
        { provide: GOVERNANCE_CLOCK, useValue: options.clock ?? null },
        GovernanceHost,
      ],
      exports: [GovernanceHost],
    };
  }
}
