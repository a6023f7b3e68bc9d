/**
 * The agents of `helios.yaml` (or the built-in demo when it names none), resolved once at start so a
 * mistake — a provider key that is not set, a workspace that does not exist — stops the start with the
 * setting's path instead of failing a user's first session.
 */
import { resolve, join } from 'node:path';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { FileSessionStore, type SessionStore, WorkspaceRoot } from '@helios/session';
import { type AgentConfig } from '../../config/agents.schema.js';
import { type HeliosConfig } from '../../config/config.schema.js';
import { ConfigError, type ConfigIssue } from '../../config/config-error.js';
import { HELIOS_CONFIG, PROCESS_ENV } from '../../config/config.tokens.js';
import { DatabaseService } from '../../persistence/database.service.js';
import { ModelRegistry } from '../../providers/model-registry.js';
import { SESSIONS_OPTIONS, type SessionsModuleOptions } from '../sessions.tokens.js';
import { type AgentDefinition } from './agent-definition.js';
import { DEMO_AGENT, demoAgentConfig, demoModel, prepareDemoWorkspace } from './demo-agent.js';

const SCRIPTED = 'scripted/';

@Injectable()
export class AgentCatalog implements OnModuleInit {
  #agents = new Map<string, AgentDefinition>();

  constructor(
    @Inject(HELIOS_CONFIG) private readonly config: HeliosConfig,
    @Inject(PROCESS_ENV) private readonly env: NodeJS.ProcessEnv,
    @Inject(ModelRegistry) private readonly models: ModelRegistry,
    @Inject(DatabaseService) private readonly database: DatabaseService,
    @Inject(SESSIONS_OPTIONS) private readonly options: SessionsModuleOptions,
  ) {}

  async onModuleInit(): Promise<void> {
    const dataDir = this.config.database.dataDir;
    const configured = this.config.agents ?? {
      [DEMO_AGENT]: demoAgentConfig(await prepareDemoWorkspace(dataDir)),
    };
    const issues: ConfigIssue[] = [];
    const agents = new Map<string, AgentDefinition>();
    for (const [name, agent] of Object.entries(configured)) {
      const definition = this.#define(name, agent, issues);
      if (definition) agents.set(name, definition);
    }
    if (issues.length > 0) throw new ConfigError('helios.yaml', issues);
    this.#agents = agents;
  }

  get(name: string): AgentDefinition | undefined {
    return this.#agents.get(name);
  }

  all(): readonly AgentDefinition[] {
    return [...this.#agents.values()];
  }

  #define(name: string, agent: AgentConfig, issues: ConfigIssue[]): AgentDefinition | undefined {
    const at = (key: string) => `agents.${name}.${key}`;
    const fail = (key: string, error: unknown) => {
      issues.push({ path: at(key), message: error instanceof Error ? error.message : String(error) });
      return undefined;
    };
    let workspace: WorkspaceRoot | undefined;
    if (agent.workspace !== undefined) {
      try {
        workspace = new WorkspaceRoot(resolve(agent.workspace));
      } catch (error) {
        return fail('workspace', error);
      }
    }
    const scripted = agent.model.startsWith(SCRIPTED);
    try {
      const model = scripted ? this.#scripted(agent.model.slice(SCRIPTED.length)) : this.#provider(agent);
      return Object.freeze({
        name,
        config: agent,
        scripted,
        model,
        costCalculator: scripted ? undefined : this.models.costCalculator(providerOf(agent.model)),
        workspace,
        store: this.#store(agent.store),
      });
    } catch (error) {
      return fail('model', error);
    }
  }

  #scripted(name: string): AgentDefinition['model'] {
    const made = this.options.scriptedModels?.[name];
    if (made) return made;
    if (name === 'demo') return () => demoModel();
    throw new Error(`no scripted model named '${name}' (scripted/demo is the built-in demo)`);
  }

  /** One model per agent, shared by its sessions (a session never closes its model; the registry does). */
  #provider(agent: AgentConfig): AgentDefinition['model'] {
    const model = this.models.resolve(agent.model, {
      env: this.env,
      ...(agent.baseUrl === undefined ? {} : { baseUrl: agent.baseUrl }),
      ...(agent.apiKey === undefined ? {} : { apiKey: agent.apiKey }),
    });
    return () => model;
  }

  #store(kind: AgentConfig['store']): SessionStore | undefined {
    switch (kind) {
      case 'memory':
        return undefined;
      case 'file':
        return FileSessionStore.of(join(this.config.database.dataDir, 'sessions'));
      case 'postgres':
        return this.database.persistence.sessions;
      default: {
        const unknown: never = kind;
        throw new Error(`unknown store ${String(unknown)}`);
      }
    }
  }
}

function providerOf(model: string): string {
  return model.slice(0, model.indexOf('/'));
}
