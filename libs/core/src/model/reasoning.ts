/**
 * What a reasoning model should do. Absent (undefined in ModelConfig) means "send no reasoning field";
 * providers send exactly what is asked or refuse at model creation, never clamp.
 */
export const ReasoningLevel = {
  MINIMAL: 'MINIMAL',
  LOW: 'LOW',
  MEDIUM: 'MEDIUM',
  HIGH: 'HIGH',
  XHIGH: 'XHIGH',
  MAX: 'MAX',
} as const;
export type ReasoningLevel = (typeof ReasoningLevel)[keyof typeof ReasoningLevel];

/** How the reasoning comes back: not at all, summarised, or only as notes between tool calls. */
export const ReasoningDisplay = {
  HIDDEN: 'HIDDEN',
  SUMMARY: 'SUMMARY',
  PROGRESS: 'PROGRESS',
} as const;
export type ReasoningDisplay = (typeof ReasoningDisplay)[keyof typeof ReasoningDisplay];

export interface ReasoningOff {
  readonly type: 'Off';
}

export interface ReasoningEffort {
  readonly type: 'Effort';
  readonly level: ReasoningLevel;
  readonly display: ReasoningDisplay;
}

export type Reasoning = ReasoningOff | ReasoningEffort;

export const Reasoning = {
  off(): ReasoningOff {
    return Object.freeze({ type: 'Off' });
  },
  effort(level: ReasoningLevel, display: ReasoningDisplay = ReasoningDisplay.HIDDEN): ReasoningEffort {
    return Object.freeze({ type: 'Effort', level, display });
  },
  /** A short stable label for messages, e.g. `Off` or `Effort(MEDIUM, PROGRESS)`. */
  describe(reasoning: Reasoning): string {
    switch (reasoning.type) {
      case 'Off':
        return 'Off';
      case 'Effort':
        return `Effort(${reasoning.level}, ${reasoning.display})`;
      default: {
        const unknown: never = reasoning;
        return String(unknown);
      }
    }
  },
} as const;
