/** What changed between a tool's baseline definition and the one seen now. */
export type DriftAspect = 'annotations' | 'inputSchema' | 'outputSchema' | 'description' | 'title' | 'other';

/**
 * One changed aspect with its two values as sent, neither hashed nor cut (the reference's
 * `ToolDriftChange`): for `other`, the two whole definitions. A side that lacks the aspect has no key, so
 * the wire omits it, as the reference's JSON does for its `undefined`.
 */
export interface DriftChange {
  readonly aspect: DriftAspect;
  readonly baseline?: unknown;
  readonly current?: unknown;
}
