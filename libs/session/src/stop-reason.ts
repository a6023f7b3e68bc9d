/** Why a turn ended, as TurnEnded reports it. */
import { FinishReason } from '@helios/core';

export const StopReason = {
  END_TURN: 'END_TURN',
  TOOL_USE: 'TOOL_USE',
  MAX_TOKENS: 'MAX_TOKENS',
  REFUSAL: 'REFUSAL',
  ERROR: 'ERROR',
  INTERRUPTED: 'INTERRUPTED',
} as const;
export type StopReason = (typeof StopReason)[keyof typeof StopReason];

export function stopReasonOf(finish: FinishReason): StopReason {
  switch (finish) {
    case FinishReason.STOP:
      return StopReason.END_TURN;
    case FinishReason.TOOL_CALLS:
      return StopReason.TOOL_USE;
    case FinishReason.LENGTH:
      return StopReason.MAX_TOKENS;
    case FinishReason.CONTENT_FILTER:
    case FinishReason.REFUSAL:
      return StopReason.REFUSAL;
    case FinishReason.ERROR:
      return StopReason.ERROR;
    default: {
      const unknown: never = finish;
      return unknown;
    }
  }
}
