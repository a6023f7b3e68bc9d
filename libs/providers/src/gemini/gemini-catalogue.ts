/**
 * The Gemini models this package knows: context, output ceiling, the thinking levels each accepts, and
 * list prices where a source was found (USD per million tokens; thinking tokens bill as output). Unknown
 * ids are not refused: they are sent as given under permissive rules, and the API judges them.
 */
import { ReasoningLevel } from '@helios/core';

export interface GeminiPrices {
  readonly input: string;
  readonly cachedInput: string;
  readonly output: string;
}

export interface GeminiModelSpec {
  readonly id: string;
  readonly contextWindow: number;
  readonly maxOutputTokens: number;
  /** The `thinking_level`s the model accepts, as Reasoning levels (MINIMAL → `minimal`, …). */
  readonly levels: readonly ReasoningLevel[];
  /** Undefined: no list price checked yet; the model costs zero in GeminiPricing. */
  readonly prices: GeminiPrices | undefined;
}

const { MINIMAL, LOW, MEDIUM, HIGH } = ReasoningLevel;
/** Flash-class Gemini 3 models take every thinking level the API spells. */
const FLASH_LEVELS = Object.freeze([MINIMAL, LOW, MEDIUM, HIGH]);
/** Pro-class models reason at least a little: no `minimal`. */
const PRO_LEVELS = Object.freeze([LOW, MEDIUM, HIGH]);
/** Ids the catalogue does not know: every level the API can spell. */
export const UNCATALOGUED_LEVELS = FLASH_LEVELS;

const CONTEXT = 1_048_576;
const MAX_OUTPUT = 65_536;

function model(
  id: string,
  levels: readonly ReasoningLevel[],
  prices?: readonly [input: string, cachedInput: string, output: string],
): GeminiModelSpec {
  return Object.freeze({
    id,
    contextWindow: CONTEXT,
    maxOutputTokens: MAX_OUTPUT,
    levels,
    prices: prices && Object.freeze({ input: prices[0], cachedInput: prices[1], output: prices[2] }),
  });
}

export const GEMINI_MODELS: readonly GeminiModelSpec[] = Object.freeze([
  model('gemini-3.8-flash', FLASH_LEVELS),
  // Input and output as Google's pricing page lists them (seen through a third-party copy, 2026-12-01);
  // cached input at the 10 % of input the Gemini 3 models bill. 3.8 Flash has no published price, and
  // 3.1 Pro's is tiered by prompt length (which Pricing cannot say): both cost zero, reported once.
  model('gemini-3.5-flash', FLASH_LEVELS, ['1.5', '0.15', '9']),
  model('gemini-3.1-pro-preview', PRO_LEVELS),
  model('gemini-3.1-flash-lite', FLASH_LEVELS, ['0.25', '0.025', '1.5']),
  // Text/image/video rates; audio input is billed higher and is not modelled.
  model('gemini-3-flash-preview', FLASH_LEVELS, ['0.5', '0.05', '3']),
]);

const BY_ID = new Map(GEMINI_MODELS.map((spec) => [spec.id, spec]));

/** The catalogue entry for an id (a `models/` prefix is ignored), or undefined for an unknown id. */
export function findGeminiModel(modelId: string): GeminiModelSpec | undefined {
  return BY_ID.get(modelId.replace(/^models\//, ''));
}
