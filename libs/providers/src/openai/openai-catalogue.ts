/**
 * The OpenAI models this package knows: context, output ceiling, which reasoning and sampling options
 * each accepts, and list prices (USD per million tokens, as the pricing page states them; cached input
 * included). A dated snapshot id (`gpt-4.1-2025-04-14`) is its family's entry. Unknown ids are not
 * refused: they are sent as given under permissive rules, and the API judges them.
 */
import { ReasoningDisplay, ReasoningLevel } from '@helios/core';

/** How `Reasoning.off()` is spelled: refused (the model always reasons), no field, or `effort: none`. */
export type OpenAiOffSpelling = 'REJECTED' | 'OMITTED' | 'NONE';

/**
 * When temperature / top_p are accepted: always, only with reasoning explicitly Off, whenever no Effort
 * is set, never, or not checked (uncatalogued ids).
 */
export type OpenAiSamplingRule = 'ACCEPTED' | 'WITH_OFF' | 'WITHOUT_EFFORT' | 'REJECTED' | 'UNCHECKED';

export interface OpenAiReasoningRules {
  readonly name: string;
  readonly off: OpenAiOffSpelling;
  /** Empty: the model does not reason, and any Effort is refused. */
  readonly levels: readonly ReasoningLevel[];
  readonly displays: readonly ReasoningDisplay[];
  readonly sampling: OpenAiSamplingRule;
}

export interface OpenAiPrices {
  readonly input: string;
  readonly cachedInput: string;
  readonly output: string;
}

export interface OpenAiModelSpec {
  readonly id: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  readonly rules: OpenAiReasoningRules;
  /** Undefined: no list price checked yet; the model costs zero in OpenAiPricing. */
  readonly prices: OpenAiPrices | undefined;
}

const { MINIMAL, LOW, MEDIUM, HIGH, XHIGH, MAX } = ReasoningLevel;
const { HIDDEN, SUMMARY } = ReasoningDisplay;
/** The Responses API returns reasoning as nothing or as a summary; it has no progress notes. */
const DISPLAYS = [HIDDEN, SUMMARY] as const;

function rules(
  name: string,
  off: OpenAiOffSpelling,
  levels: readonly ReasoningLevel[],
  sampling: OpenAiSamplingRule,
): OpenAiReasoningRules {
  return Object.freeze({ name, off, levels, displays: levels.length === 0 ? [] : DISPLAYS, sampling });
}

export const OPENAI_RULES = {
  ALWAYS_REASONS: rules('ALWAYS_REASONS', 'REJECTED', [LOW, MEDIUM, HIGH, XHIGH, MAX], 'REJECTED'),
  NONE_TO_MAX: rules('NONE_TO_MAX', 'NONE', [LOW, MEDIUM, HIGH, XHIGH, MAX], 'WITH_OFF'),
  NONE_TO_XHIGH: rules('NONE_TO_XHIGH', 'NONE', [LOW, MEDIUM, HIGH, XHIGH], 'WITH_OFF'),
  NONE_BY_DEFAULT_TO_XHIGH: rules(
    'NONE_BY_DEFAULT_TO_XHIGH',
    'NONE',
    [LOW, MEDIUM, HIGH, XHIGH],
    'WITHOUT_EFFORT',
  ),
  LOW_TO_HIGH: rules('LOW_TO_HIGH', 'REJECTED', [LOW, MEDIUM, HIGH], 'REJECTED'),
  NOT_REASONING: rules('NOT_REASONING', 'OMITTED', [], 'ACCEPTED'),
  /** Ids the catalogue does not know: everything the API can spell is sent as asked. */
  UNCATALOGUED: rules('UNCATALOGUED', 'NONE', [MINIMAL, LOW, MEDIUM, HIGH, XHIGH, MAX], 'UNCHECKED'),
} as const satisfies Record<string, OpenAiReasoningRules>;

const K = 1_024;
const LONG_CONTEXT = 1_050_000;

function model(
  id: string,
  rules: OpenAiReasoningRules,
  window: readonly [context: number, maxOutput: number],
  prices?: readonly [input: string, cachedInput: string, output: string],
): OpenAiModelSpec {
  return Object.freeze({
    id,
    contextWindow: window[0],
    maxOutputTokens: window[1],
    rules,
    prices: prices && Object.freeze({ input: prices[0], cachedInput: prices[1], output: prices[2] }),
  });
}

const R = OPENAI_RULES;

export const OPENAI_MODELS: readonly OpenAiModelSpec[] = Object.freeze([
  model('gpt-6.1-sol', R.ALWAYS_REASONS, [LONG_CONTEXT, 128 * K]),
  model('gpt-6-astra', R.ALWAYS_REASONS, [LONG_CONTEXT, 128 * K]),
  model('gpt-6-sol', R.NONE_TO_MAX, [LONG_CONTEXT, 128 * K]),
  model('gpt-6-luna', R.NONE_TO_MAX, [LONG_CONTEXT, 128 * K]),
  // The GPT-5.6 sizes: input and output as OpenAI's Help Center preview lists them (seen through a
  // third-party copy, 2026-12-01); cached input at the 10 % of input every GPT-5 tier bills. The plain
  // `gpt-5.6` id and the GPT-6 models have no published price yet: they cost zero and are reported once.
  model('gpt-5.6-sol', R.NONE_TO_MAX, [LONG_CONTEXT, 128 * K], ['5', '0.5', '30']),
  model('gpt-5.6', R.NONE_TO_MAX, [LONG_CONTEXT, 128 * K]),
  model('gpt-5.6-terra', R.NONE_TO_MAX, [LONG_CONTEXT, 128 * K], ['2.5', '0.25', '15']),
  model('gpt-5.6-luna', R.NONE_TO_MAX, [LONG_CONTEXT, 128 * K], ['1', '0.1', '6']),
  model('gpt-5.5', R.NONE_TO_XHIGH, [LONG_CONTEXT, 128 * K], ['5', '0.5', '30']),
  model('gpt-5.4', R.NONE_BY_DEFAULT_TO_XHIGH, [LONG_CONTEXT, 128 * K], ['2.5', '0.25', '15']),
  model('gpt-5.4-mini', R.NONE_BY_DEFAULT_TO_XHIGH, [400_000, 128 * K], ['0.75', '0.075', '4.5']),
  model('gpt-5.4-nano', R.NONE_BY_DEFAULT_TO_XHIGH, [400_000, 128 * K], ['0.2', '0.02', '1.25']),
  model('o3', R.LOW_TO_HIGH, [200_000, 100_000], ['2', '0.5', '8']),
  model('o4-mini', R.LOW_TO_HIGH, [200_000, 100_000], ['1.1', '0.275', '4.4']),
  model('gpt-4.1', R.NOT_REASONING, [1_047_576, 32_768], ['2', '0.5', '8']),
  model('gpt-4.1-mini', R.NOT_REASONING, [1_047_576, 32_768], ['0.4', '0.1', '1.6']),
  model('gpt-4.1-nano', R.NOT_REASONING, [1_047_576, 16_384], ['0.1', '0.025', '0.4']),
  model('gpt-4o', R.NOT_REASONING, [128_000, 16_384], ['2.5', '1.25', '10']),
  model('gpt-4o-mini', R.NOT_REASONING, [128_000, 16_384], ['0.15', '0.075', '0.6']),
]);

const BY_ID = new Map(OPENAI_MODELS.map((spec) => [spec.id, spec]));
const DATED_SNAPSHOT = /-\d{4}-\d{2}-\d{2}$/;

/** The catalogue entry for an id or its dated snapshot, or undefined for an unknown id. */
export function findOpenAiModel(modelId: string): OpenAiModelSpec | undefined {
  return BY_ID.get(modelId) ?? BY_ID.get(modelId.replace(DATED_SNAPSHOT, ''));
}
