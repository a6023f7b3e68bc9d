import { type DynamicModule, Module } from '@nestjs/common';
import { type Clock, type CompileResult } from '@helios/governance';
import { PersistenceModule } from '../persistence/persistence.module.js';
import { GovernanceHost } from './governance-host.service.js';
import { GOVERNANCE_CLOCK, GOVERNANCE_POLICY } from './governance.tokens.js';

export interface GovernanceModuleOptions {
  /**
   * The compiled policy (`prepareGovernance`), checked before the app is built so an invalid one never
   * starts anything; undefined when `governance.policy` is unset.
   */
  readonly policy: CompileResult | undefined;
  /** The engine's time (TTLs, windows, deadlines), so tests cross them without waiting. */
  readonly clock?: Clock;
}

/**
 * The tool-call policy decision point: the compiled policy, the engine over its PostgreSQL stores,
 * its sweeps and the adapter API listener — a separate Fastify instance, documented at
 * `/docs/adapter-json`.
 */
@Module({})
export class GovernanceModule {
  static forRoot(options: GovernanceModuleOptions): DynamicModule {
    return {
      module: GovernanceModule,
      imports: [PersistenceModule],
      providers: [
        { provide: GOVERNANCE_POLICY, useValue: options.policy ?? null },
        { provide: GOVERNANCE_CLOCK, useValue: options.clock ?? null },
        GovernanceHost,
      ],
      exports: [GovernanceHost],
    };
  }
}
