/** What one W1 run did, and the check every run of every system must pass. */
export interface W1Outcome {
  readonly modelCalls: number;
  readonly toolCalls: number;
  readonly text: string;
  /** Helios only: what its one event reader read and missed (reported, not checked). */
  readonly eventsRead?: number;
  readonly eventsMissed?: number;
}

/** A system's W1 run of `turns` tool turns; resolves with what it did (checked by `checkW1`). */
export type W1Run = (turns: number) => Promise<W1Outcome>;

/** Throws unless the run made turns + 1 model calls, `turns` tool executions and answered 'done'. */
export function checkW1(system: string, turns: number, outcome: W1Outcome): void {
  if (outcome.modelCalls !== turns + 1 || outcome.toolCalls !== turns || outcome.text !== 'done') {
    throw new Error(`${system} W1 @${turns} incorrect: ${JSON.stringify(outcome)}`);
  }
}
