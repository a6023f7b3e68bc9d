/** In-memory tool baselines per origin (tests, single-process embedding). */
import {
  type BaselineCaps,
  type BaselineObservation,
  type ToolBaselineStore,
  type ObservedToolDefinition,
} from '../tool-baseline-store.js';
import { sameJson } from '../../util/same-json.js';

interface Seen {
  readonly baseline: ObservedToolDefinition;
  readonly baselineBytes: number;
  /** A definition sent again unchanged (the usual case) is compared, not copied or serialized. */
  current: ObservedToolDefinition;
  /** 0 while `current` is the baseline itself. */
  currentBytes: number;
}

interface OriginTools {
  readonly tools: Map<string, Seen>;
  /** Serialized bytes of every definition kept for the origin. */
  bytes: number;
}

interface Copy {
  readonly definition: ObservedToolDefinition;
  readonly bytes: number;
}

export class MemoryToolBaselineStore implements ToolBaselineStore {
  private readonly origins = new Map<string, OriginTools>();

  observe(
    origin: string,
    toolName: string,
    definition: ObservedToolDefinition | undefined,
    caps: BaselineCaps,
  ): BaselineObservation {
    let kept = this.origins.get(origin);
    if (kept === undefined) {
      if (this.origins.size >= caps.maxOrigins) return { type: 'OriginLimit' };
      kept = { tools: new Map(), bytes: 0 };
      this.origins.set(origin, kept);
    }
    let seen = kept.tools.get(toolName);
    if (definition !== undefined) {
      if (seen === undefined) {
        if (kept.tools.size >= caps.maxToolsPerOrigin) return { type: 'ToolLimit' };
        const copy = copyOf(definition);
        const refused = refusal(copy.bytes, kept.bytes + copy.bytes, caps);
        if (refused !== undefined) return refused;
        seen = {
          baseline: copy.definition,
          baselineBytes: copy.bytes,
          current: copy.definition,
          currentBytes: 0,
        };
        kept.tools.set(toolName, seen);
        kept.bytes += copy.bytes;
      } else if (!sameJson(definition, seen.current)) {
        const copy = copyOf(definition);
        const refused = refusal(copy.bytes, kept.bytes - seen.currentBytes + copy.bytes, caps);
        if (refused !== undefined) return refused;
        kept.bytes += copy.bytes - seen.currentBytes;
        seen.current = copy.definition;
        seen.currentBytes = copy.bytes;
      }
    }
    return { type: 'Observed', baseline: seen?.baseline, current: seen?.current };
  }
}

function refusal(bytes: number, originBytes: number, caps: BaselineCaps): BaselineObservation | undefined {
  if (bytes > caps.maxToolDefinitionBytes) return { type: 'DefinitionTooLarge' };
  if (originBytes > caps.maxToolDefinitionBytesPerOrigin) return { type: 'ToolLimit' };
  return undefined;
}

/** Kept as a copy (the caller's object may change after the call), measured by the text it came from. */
function copyOf(definition: ObservedToolDefinition): Copy {
  const text = JSON.stringify(definition);
  return { definition: JSON.parse(text) as ObservedToolDefinition, bytes: Buffer.byteLength(text, 'utf8') };
}
