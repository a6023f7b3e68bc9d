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
}

export type BaselineObservation =
  | { readonly type: 'origin_limit' }
  | { readonly type: 'tool_limit' }
  | {
      readonly type: 'observed';
      readonly baseline: ToolDefinition | undefined;
      readonly current: ToolDefinition | undefined;
    };

export interface ToolBaselineStore {
  /**
   * Registers the origin (refused past `maxOrigins`), then records `definition` when given: first
   * sight becomes the baseline (refused past `maxToolsPerOrigin`), later sights update `current`.
   * May answer synchronously.
   */
  observe(
    origin: string,
    toolName: string,
    definition: ToolDefinition | undefined,
    caps: BaselineCaps,
  ): BaselineObservation | Promise<BaselineObservation>;
}
