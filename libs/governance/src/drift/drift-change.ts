/** What changed between a tool's baseline definition and the one seen now. */
export type DriftAspect = 'annotations' | 'inputSchema' | 'outputSchema' | 'description' | 'title' | 'other';

export interface DriftChange {
  readonly aspect: DriftAspect;
}
