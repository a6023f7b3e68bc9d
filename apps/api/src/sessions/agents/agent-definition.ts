import { type CostCalculator, type Model } from '@helios/core';
import { type SessionStore, type WorkspaceRoot } from '@helios/session';
import { type AgentConfig } from '../../config/agents.schema.js';

/** One agent, resolved at start: what the options factory needs to open a session of it. */
export interface AgentDefinition {
  readonly name: string;
  readonly config: AgentConfig;
  /** A scripted model (the demo, or one an embedder registered): no provider is called. */
  readonly scripted: boolean;
  /** The model of a new session: a provider model is shared, a scripted one is made per session. */
  model(sessionId: string): Model;
  readonly costCalculator: CostCalculator | undefined;
  /** The file tools' root (readOnly, workspace presets). */
  readonly workspace: WorkspaceRoot | undefined;
  /** Where conversations are kept between sessions (file, postgres); memory keeps none. */
  readonly store: SessionStore | undefined;
}

/** What `GET /v1/agents` shows of an agent: never its key or base URL. */
export interface AgentListing {
  readonly name: string;
  readonly model: string;
  readonly preset: AgentConfig['preset'];
  readonly scripted: boolean;
  readonly store: AgentConfig['store'];
}

export function listing(agent: AgentDefinition): AgentListing {
  return {
    name: agent.name,
    model: agent.config.model,
    preset: agent.config.preset,
    scripted: agent.scripted,
    store: agent.config.store,
  };
}
