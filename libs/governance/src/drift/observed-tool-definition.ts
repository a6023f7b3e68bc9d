/**
 * A tool definition as an adapter sent it with a call (camelCase; the wire's `tool` block), the unit the
 * drift guard compares: the first one seen per origin is the baseline, the latest is current. Not core's
 * `ToolDefinition` (what a model is offered): this is what an observed caller claims its tool is.
 */
export interface ObservedToolDefinition {
  readonly name: string;
  readonly description?: unknown;
  readonly inputSchema?: unknown;
  readonly outputSchema?: unknown;
  readonly title?: unknown;
  readonly annotations?: unknown;
}
