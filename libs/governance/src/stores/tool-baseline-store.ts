/** Tool definitions per adapter origin: the first one seen is the baseline, the latest is current. */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: unknown;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly title?: unknown;
  readonly annotations?: unknown;
}

export interface BaselineCaps {
  readonly maxOrigins: number;
  readonly maxToolsPerOrigin: number;
  /** Serialized bytes of one definition a store keeps. */
  readonly maxToolDefinitionBytes: number;
  /** Serialized bytes of every definition kept for one origin (baselines and current ones). */
  readonly maxToolDefinitionBytesPerOrigin: number;
}

export type BaselineObservation =
  | { readonly type: 'origin_limit' }
  | { readonly type: 'tool_limit' }
  | { readonly type: 'definition_too_large' }
  | {
      readonly type: 'observed';
      readonly baseline: ToolDefinition | undefined;
      readonly current: ToolDefinition | undefined;
    };

export interface ToolBaselineStore {
  /**
   * Registers the origin (refused past `maxOrigins`), then records `definition` when given: first
   * sight becomes the baseline (refused past `maxToolsPerOrigin`), later sights update `current`.
   * A definition to keep that serializes past `maxToolDefinitionBytes` is `definition_too_large`; one
   * that would take the origin past `maxToolDefinitionBytesPerOrigin` is `tool_limit`. Nothing is
   * kept for a refused call.
   * May answer synchronously.
   */
  observe(
    origin: string,
    toolName: string,
    definition: ToolDefinition | undefined,
    caps: BaselineCaps,
  ): BaselineObservation | Promise<BaselineObservation>;
}
