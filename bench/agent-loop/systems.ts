/**
 * The systems W1 compares, each loaded only in its own worker process (see index.ts). `pkg` names the
 * installed package whose version labels the system's figures.
 */
import { type W1Run } from './outcome.ts';

export interface System {
  readonly name: string;
  readonly pkg?: string;
  readonly load: () => Promise<{ run: W1Run }>;
}

export const SYSTEMS: readonly System[] = [
  { name: 'helios', load: () => import('./peers/helios.ts') },
  { name: 'helios-every-event', load: () => import('./peers/helios-every-event.ts') },
  { name: 'ai-sdk', pkg: 'ai', load: () => import('./peers/ai-sdk.ts') },
  { name: 'openai-agents', pkg: '@openai/agents', load: () => import('./peers/openai-agents.ts') },
  { name: 'langgraph', pkg: '@langchain/langgraph', load: () => import('./peers/langgraph.ts') },
  { name: 'floor', load: () => import('./peers/floor.ts') },
];
