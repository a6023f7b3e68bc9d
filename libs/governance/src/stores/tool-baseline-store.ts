/** Tool definitions per adapter origin: the first one seen is the baseline, the latest is current. */
import { type ObservedToolDefinition } from '../drift/observed-tool-definition.js';

export { type ObservedToolDefinition };

export interface BaselineCaps {
  readonly maxOrigins: number;
  readonly maxToolsPerOrigin: number;
  /** Serialized bytes of one definition a store keeps. */
  readonly maxToolDefinitionBytes: number;
  /** Serialized bytes of every definition kept for one origin (baselines and current ones). */
  readonly maxToolDefinitionBytesPerOrigin: number;
}

export type BaselineObservation =
  | { readonly type: 'OriginLimit' }
  | { readonly type: 'ToolLimit' }
  | { readonly type: 'DefinitionTooLarge' }
  | {
      readonly type: 'Observed';
      readonly baseline: ObservedToolDefinition | undefined;
      readonly current: ObservedToolDefinition | undefined;
    };

export interface ToolBaselineStore {
  /**
   * Registers the origin (refused past `maxOrigins`), then records `definition` when given: first
   * sight becomes the baseline (refused past `maxToolsPerOrigin`), later sights update `current`.
   * A definition to keep that serializes past `maxToolDefinitionBytes` is `DefinitionTooLarge`; one
   * that would take the origin past `maxToolDefinitionBytesPerOrigin` is `ToolLimit`. Nothing is
   * kept for a refused call.
   * May answer synchronously.
   */
  observe(
    origin: string,
    toolName: string,
    definition: ObservedToolDefinition | undefined,
    caps: BaselineCaps,
  ): BaselineObservation | Promise<BaselineObservation>;
}
