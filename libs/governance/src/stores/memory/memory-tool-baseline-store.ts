/** In-memory tool baselines per origin (tests, single-process embedding). */
import {
  type BaselineCaps,
  type BaselineObservation,
  type ToolBaselineStore,
  type ToolDefinition,
} from '../tool-baseline-store.js';
import { sameJson } from '../../util/same-json.js';

interface Seen {
  readonly baseline: ToolDefinition;
  /** A definition sent again unchanged (the usual case) is compared, not copied or serialized. */
  current: ToolDefinition;
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
      if (seen === undefined) {
        if (tools.size >= caps.maxToolsPerOrigin) return { type: 'tool_limit' };
        // Kept as a copy: the caller's object may change after the call.
        const copy = jsonCopy(definition);
        seen = { baseline: copy, current: copy };
        tools.set(toolName, seen);
      } else if (!sameJson(definition, seen.current)) {
        seen.current = jsonCopy(definition);
      }
    }
    return { type: 'observed', baseline: seen?.baseline, current: seen?.current };
  }
}

function jsonCopy(definition: ToolDefinition): ToolDefinition {
  return JSON.parse(JSON.stringify(definition)) as ToolDefinition;
}
