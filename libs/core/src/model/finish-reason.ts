/** Why a model turn ended. Providers map their own stop reasons onto these six. */
export const FinishReason = {
  STOP: 'STOP',
  TOOL_CALLS: 'TOOL_CALLS',
  LENGTH: 'LENGTH',
  CONTENT_FILTER: 'CONTENT_FILTER',
  REFUSAL: 'REFUSAL',
  ERROR: 'ERROR',
} as const;

export type FinishReason = (typeof FinishReason)[keyof typeof FinishReason];

const names: ReadonlySet<string> = new Set(Object.values(FinishReason));

/** Reads a finish reason by name; an unknown name is STOP, as sessions have always treated it. */
export function parseFinishReason(name: string): FinishReason {
  return names.has(name) ? (name as FinishReason) : FinishReason.STOP;
}
