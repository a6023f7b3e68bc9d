/** In-memory tool baselines per origin (tests, single-process embedding). */
import {
  type BaselineCaps,
  type BaselineObservation,
  type ToolBaselineStore,
  type ToolDefinition,
} from '../tool-baseline-store.js';

interface Seen {
  readonly baseline: ToolDefinition;
  current: ToolDefinition;
}

export class MemoryToolBaselineStore implements ToolBaselineStore {
  private readonly origins = new Map<string, Map<string, Seen>>();

  observe(
    origin: string,
    toolName: string,
    definition: ToolDefinition | undefined,
    caps: BaselineCaps,
  ): Promise<BaselineObservation> {
    let tools = this.origins.get(origin);
    if (tools === undefined) {
      if (this.origins.size >= caps.maxOrigins) return Promise.resolve({ type: 'origin_limit' });
      tools = new Map();
      this.origins.set(origin, tools);
    }
    let seen = tools.get(toolName);
    if (definition !== undefined) {
      if (seen === undefined) {
        if (tools.size >= caps.maxToolsPerOrigin) return Promise.resolve({ type: 'tool_limit' });
        seen = { baseline: definition, current: definition };
        tools.set(toolName, seen);
      } else {
        seen.current = definition;
      }
    }
    return Promise.resolve({ type: 'observed', baseline: seen?.baseline, current: seen?.current });
  }
}
