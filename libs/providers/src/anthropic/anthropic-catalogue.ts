/**
 * The Claude models this package knows: context, output ceiling, which reasoning and sampling options
 * each accepts, and list prices (USD per million tokens, as the pricing page states them). A dated
 * snapshot id (`claude-opus-5-20261001`) is its family's entry. Unknown ids are not refused: they are
 * sent as given under permissive rules, and the API judges them.
 */
import { ReasoningDisplay, ReasoningLevel } from '@helios/core';

/** How `Reasoning.off()` is spelled for a model, or that the model always thinks. */
export type OffSpelling = 'REJECTED' | 'OMITTED' | 'DISABLED' | 'BETWEEN_TOOLS';

/** Which of temperature / top_p a model takes. */
export type SamplingRule = 'REJECTED' | 'ONE_OF' | 'ONE_OF_WITHOUT_EFFORT' | 'UNCHECKED';

export interface ReasoningRules {
  readonly off: OffSpelling;
  readonly levels: readonly ReasoningLevel[];
  readonly displays: readonly ReasoningDisplay[];
  readonly sampling: SamplingRule;
  /** ADAPTIVE: `thinking.type = adaptive` + `output_config.effort`; BUDGET: `budget_tokens` only. */
  readonly thinking: 'ADAPTIVE' | 'BUDGET';
}

export interface AnthropicPrices {
  readonly input: string;
  readonly output: string;
  readonly cacheRead: string;
}

export interface AnthropicModelSpec {
  readonly id: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly rules: ReasoningRules;
  /** Whether tool_choice `any`/`tool` is accepted (signed-thinking models refuse it). */
  readonly forcedToolChoice: boolean;
  /**
   * Whether the model accepts earlier turns' thinking back only under the system prompt and tool set it
   * was produced under (anthropic-prompt-binding.ts).
   */
  readonly bindsThinkingToPrompt: boolean;
  readonly prices: AnthropicPrices;
}

const { LOW, MEDIUM, HIGH, XHIGH, MAX, MINIMAL } = ReasoningLevel;
const { HIDDEN, SUMMARY, PROGRESS } = ReasoningDisplay;
const ADAPTIVE_LEVELS = [LOW, MEDIUM, HIGH, XHIGH, MAX] as const;

function adaptive(off: OffSpelling, displays: readonly ReasoningDisplay[]): ReasoningRules {
  return { off, levels: ADAPTIVE_LEVELS, displays, sampling: 'REJECTED', thinking: 'ADAPTIVE' };
}

const RULES = {
  ALWAYS_ON_WITH_PROGRESS: adaptive('REJECTED', [HIDDEN, SUMMARY, PROGRESS]),
  ALWAYS_ON: adaptive('REJECTED', [HIDDEN, SUMMARY]),
  OFF_BETWEEN_TOOLS: adaptive('BETWEEN_TOOLS', [HIDDEN, SUMMARY]),
  OFF_WHEN_DISABLED: adaptive('DISABLED', [HIDDEN, SUMMARY]),
  OFF_WHEN_OMITTED: adaptive('OMITTED', [HIDDEN, SUMMARY]),
  WITHOUT_XHIGH: {
    off: 'OMITTED',
    levels: [LOW, MEDIUM, HIGH, MAX],
    displays: [HIDDEN, SUMMARY],
    sampling: 'ONE_OF_WITHOUT_EFFORT',
    thinking: 'ADAPTIVE',
  },
  // Budget thinking has no display switch: it always returns summarised thinking.
  WITHOUT_EFFORT: {
    off: 'OMITTED',
    levels: [MINIMAL, LOW, MEDIUM, HIGH],
    displays: [SUMMARY],
    sampling: 'ONE_OF',
    thinking: 'BUDGET',
  },
} as const satisfies Record<string, ReasoningRules>;

/** Rules for ids the catalogue does not know: everything is sent as asked. */
export const UNCATALOGUED_RULES: ReasoningRules = {
  off: 'DISABLED',
  levels: Object.values(ReasoningLevel),
  displays: Object.values(ReasoningDisplay),
  sampling: 'UNCHECKED',
  thinking: 'ADAPTIVE',
};

/** `max_tokens` for an uncatalogued model when the config sets none (never 0). */
export const UNCATALOGUED_MAX_OUTPUT_TOKENS = 32_000;

const M = 1_000_000;
const K = 1_024;

function model(
  id: string,
  rules: ReasoningRules,
  prices: readonly [input: string, output: string, cacheRead: string],
  options: {
    readonly context?: number;
    readonly maxOutput?: number;
    readonly forced?: boolean;
    readonly bound?: boolean;
  } = {},
): AnthropicModelSpec {
  return Object.freeze({
    id,
    contextWindow: options.context ?? M,
    maxOutputTokens: options.maxOutput ?? 128 * K,
    rules,
    forcedToolChoice: options.forced ?? true,
    bindsThinkingToPrompt: options.bound ?? false,
    prices: Object.freeze({ input: prices[0], output: prices[1], cacheRead: prices[2] }),
  });
}

export const ANTHROPIC_MODELS: readonly AnthropicModelSpec[] = Object.freeze([
  model('claude-fable-5-1', RULES.ALWAYS_ON_WITH_PROGRESS, ['10', '50', '0.25'], {
    forced: false,
    bound: true,
  }),
  model('claude-mythos-5-1', RULES.ALWAYS_ON_WITH_PROGRESS, ['10', '50', '0.25'], { forced: false }),
  model('claude-fable-5', RULES.ALWAYS_ON_WITH_PROGRESS, ['10', '50', '1']),
  model('claude-mythos-5', RULES.ALWAYS_ON, ['10', '50', '1']),
  model('claude-opus-5-5', RULES.ALWAYS_ON_WITH_PROGRESS, ['4', '20', '0.2'], { forced: false, bound: true }),
  model('claude-opus-5', RULES.OFF_WHEN_DISABLED, ['5', '25', '0.5']),
  model('claude-sonnet-5-5', RULES.OFF_BETWEEN_TOOLS, ['2', '10', '0.2'], { forced: false, bound: true }),
  model('claude-sonnet-5', RULES.OFF_WHEN_DISABLED, ['2', '10', '0.2']),
  model('claude-opus-4-8', RULES.OFF_WHEN_OMITTED, ['5', '25', '0.5']),
  model('claude-opus-4-7', RULES.OFF_WHEN_OMITTED, ['5', '25', '0.5']),
  model('claude-opus-4-6', RULES.WITHOUT_XHIGH, ['5', '25', '0.5']),
  model('claude-sonnet-4-6', RULES.WITHOUT_XHIGH, ['3', '15', '0.3']),
  model('claude-haiku-4-5', RULES.WITHOUT_EFFORT, ['1', '5', '0.1'], { context: 200_000, maxOutput: 64 * K }),
]);

const BY_ID = new Map(ANTHROPIC_MODELS.map((spec) => [spec.id, spec]));
const DATED_SNAPSHOT = /-\d{8}$/;

/** The catalogue entry for an id or its dated snapshot, or undefined for an unknown id. */
export function findAnthropicModel(modelId: string): AnthropicModelSpec | undefined {
  return BY_ID.get(modelId) ?? BY_ID.get(modelId.replace(DATED_SNAPSHOT, ''));
}
