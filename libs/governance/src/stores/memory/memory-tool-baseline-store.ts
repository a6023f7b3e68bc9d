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
  /** JSON text of `current`: a definition sent again unchanged reuses the stored object (no copy). */
  currentJson: string;
}

export class MemoryToolBaselineStore implements ToolBaselineStore {
  private readonly origins = new Map<string, Map<string, Seen>>();

  observe(
    origin: string,
    toolName: string,
    definition: ToolDefinition | undefined,
    caps: BaselineCaps,
  ): BaselineObservation {
    let tools = this.origins.get(origin);
    if (tools === undefined) {
      if (this.origins.size >= caps.maxOrigins) return { type: 'origin_limit' };
      tools = new Map();
      this.origins.set(origin, tools);
    }
    let seen = tools.get(toolName);
    if (definition !== undefined) {
      const json = JSON.stringify(definition);
      if (seen === undefined) {
        if (tools.size >= caps.maxToolsPerOrigin) return { type: 'tool_limit' };
        // Kept as a copy: the caller's object may change after the call.
        const copy = JSON.parse(json) as ToolDefinition;
        seen = { baseline: copy, current: copy, currentJson: json };
        tools.set(toolName, seen);
      } else if (json !== seen.currentJson) {
        seen.current = JSON.parse(json) as ToolDefinition;
        seen.currentJson = json;
      }
    }
    return { type: 'observed', baseline: seen?.baseline, current: seen?.current };
  }
}
