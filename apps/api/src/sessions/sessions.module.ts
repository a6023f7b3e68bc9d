import { type DynamicModule, Module } from '@nestjs/common';
import { PersistenceModule } from '../persistence/persistence.module.js';
import { ProvidersModule } from '../providers/providers.module.js';
import { SandboxModule } from '../sandbox/sandbox.module.js';
import { AgentCatalog } from './agents/agent-catalog.js';
import { SessionOptionsFactory } from './agents/session-options-factory.js';
import { AgentsController } from './http/agents.controller.js';
import { SessionReadsController } from './http/session-reads.controller.js';
import { SessionsController } from './http/sessions.controller.js';
import { SessionRegistry } from './registry/session-registry.js';
import { SESSIONS_OPTIONS, type SessionsModuleOptions } from './sessions.tokens.js';

/**
 * Runs agents over HTTP/SSE (`/v1/agents`, `/v1/sessions`): the agents of `helios.yaml` (or the
 * built-in demo), the options factory, the registry of every principal's sessions with its caps and
 * retention sweep, and the routes. Authentication and admission happen before any route runs
 * (AuthModule's gate). Sessions close before the server drains, so open event streams end.
 */
@Module({})
export class SessionsModule {
  static forRoot(options: SessionsModuleOptions = {}): DynamicModule {
    return {
      module: SessionsModule,
      imports: [PersistenceModule, ProvidersModule, SandboxModule],
      controllers: [AgentsController, SessionsController, SessionReadsController],
      providers: [
        { provide: SESSIONS_OPTIONS, useValue: options },
        AgentCatalog,
        SessionOptionsFactory,
        SessionRegistry,
      ],
      exports: [SessionRegistry, AgentCatalog],
    };
  }
}
