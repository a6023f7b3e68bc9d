/**
 * The options factory: the named agent, the generated session id and the principal that will own the
 * session → SessionOptions. The preset gives tools and policy, the agent's settings override it, the
 * conversation is stored under the owner (OwnedSessionStore), traces go to PostgreSQL and the session
 * logs through Nest's logger.
 */
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  Permission,
  type SessionLimits,
  SessionLogger,
  type SessionOptions,
  type SessionOptionsBuilder,
  SessionPresets,
} from '@helios/session';
import { withExecutionProvider } from '@helios/sandbox';
import { type Principal } from '../../auth/authentication.js';
import { DatabaseService } from '../../persistence/database.service.js';
import { ExecutionProviders } from '../../sandbox/execution-providers.js';
import { type AgentDefinition } from './agent-definition.js';
import { OwnedSessionStore } from './owned-store.js';

@Injectable()
export class SessionOptionsFactory {
  readonly #logger = new Logger('Session');
  readonly #sessionLogger: SessionLogger;

  constructor(
    @Inject(DatabaseService) private readonly database: DatabaseService,
    @Inject(ExecutionProviders) private readonly executionProviders: ExecutionProviders,
  ) {
    const logger = this.#logger;
    this.#sessionLogger = Object.freeze({
      debug: (message: string) => logger.debug(message),
      warn: (message: string, error?: unknown) => logger.warn({ err: error }, message),
      error: (message: string, error?: unknown) => logger.error({ err: error }, message),
    });
  }

  build(agent: AgentDefinition, sessionId: string, owner: Principal): SessionOptions {
    const { config } = agent;
    const builder = preset(agent, agent.model(sessionId)).withSessionId(sessionId);
    if (config.systemPrompt !== undefined) builder.withSystemPrompt(config.systemPrompt);
    if (config.permission !== undefined) {
      const { mode, allow, ask, deny } = config.permission;
      builder.withPermission(new Permission(mode, { allow, ask, deny }));
    }
    if (agent.store !== undefined) builder.withStore(new OwnedSessionStore(agent.store, owner));
    const options = builder
      .with({
        limits: limitsOf(config.limits),
        logger: this.#sessionLogger,
        traceListener: this.database.persistence.traces,
        ...(config.traceDetail === undefined ? {} : { traceDetail: config.traceDetail }),
        ...(agent.costCalculator === undefined ? {} : { costCalculator: agent.costCalculator }),
      })
      .build();
    // The session starts its sandbox at open (a refusal fails the open) and ends it at close.
    if (config.execution === undefined) return options;
    return withExecutionProvider(options, this.executionProviders.get(config.execution));
  }
}

function preset(agent: AgentDefinition, model: SessionOptions['model']): SessionOptionsBuilder {
  switch (agent.config.preset) {
    case 'minimal':
      return SessionPresets.minimal(model);
    case 'readOnly':
      return SessionPresets.readOnly(model, requireWorkspace(agent));
    case 'workspace':
      return SessionPresets.workspace(model, requireWorkspace(agent));
    default: {
      const unknown: never = agent.config.preset;
      throw new Error(`unknown preset ${String(unknown)}`);
    }
  }
}

function requireWorkspace(agent: AgentDefinition) {
  if (agent.workspace === undefined) throw new Error(`agent ${agent.name} has no workspace`);
  return agent.workspace;
}

function limitsOf(limits: AgentDefinition['config']['limits']): Partial<SessionLimits> {
  if (limits === undefined) return {};
  return {
    ...(limits.maxTurns === undefined ? {} : { maxTurns: limits.maxTurns }),
    ...(limits.maxBudgetMicroUsd === undefined ? {} : { maxBudgetMicroUsd: limits.maxBudgetMicroUsd }),
    ...(limits.maxWallClockMs === undefined ? {} : { maxWallClockMs: limits.maxWallClockMs }),
  };
}
