/**
 * Match conditions of rules and budget contributors. Each configured operator becomes one condition;
 * all conditions of a rule are AND-ed. Comparisons never coerce: `eq` is strict equality (deep for
 * objects and arrays), ordering operators need numbers on both sides, `contains`/`regex` need strings.
 * A `regex` is not run on a string longer than MAX_REGEX_INPUT_LENGTH: that condition is
 * "unevaluable", and whoever asks decides what that means for its verdict (the rule engine denies).
 */
import { parseDotPath, resolveDotPath } from './dot-path.js';
import { compileSafeRegex, type PolicyRegex } from '../util/safe-regex.js';
import { MAX_REGEX_INPUT_LENGTH } from '../config/governance-limits.js';
import { type InputConditionConfig, type MetadataConditionConfig } from '../config/policy-schema.js';
import { canonicalJson } from '../util/canonical-json.js';

export type ConditionOperator =
  | { readonly type: 'eq'; readonly value: unknown }
  | { readonly type: 'neq'; readonly value: unknown }
  | { readonly type: 'gt' | 'gte' | 'lt' | 'lte'; readonly value: number }
  | { readonly type: 'contains'; readonly value: string }
  | { readonly type: 'regex'; readonly regex: PolicyRegex };

/** A condition that could not be tested, and why (for the decision's reason). */
export interface Unevaluable {
  readonly unevaluable: string;
}

/** All conditions hold, one fails, or none fails but one could not be tested. */
export type ConditionOutcome = boolean | Unevaluable;

export interface InputCondition {
  readonly path: readonly string[];
  readonly operator: ConditionOperator;
}

export interface MetadataCondition {
  readonly key: string;
  readonly operator: ConditionOperator;
}

export function compileInputConditions(
  input: Readonly<Record<string, InputConditionConfig>>,
): readonly InputCondition[] {
  const out: InputCondition[] = [];
  for (const [path, config] of Object.entries(input)) {
    const segments = parseDotPath(path);
    for (const operator of compileOperators(config)) out.push({ path: segments, operator });
  }
  return out;
}

export function compileMetadataConditions(
  metadata: Readonly<Record<string, MetadataConditionConfig>>,
): readonly MetadataCondition[] {
  const out: MetadataCondition[] = [];
  for (const [key, config] of Object.entries(metadata)) {
    if (typeof config === 'string') out.push({ key, operator: { type: 'eq', value: config } });
    else for (const operator of compileOperators(config)) out.push({ key, operator });
  }
  return out;
}

function compileOperators(config: InputConditionConfig): ConditionOperator[] {
  const operators: ConditionOperator[] = [];
  if (config.eq !== undefined) operators.push({ type: 'eq', value: config.eq });
  if (config.neq !== undefined) operators.push({ type: 'neq', value: config.neq });
  for (const type of ['gt', 'gte', 'lt', 'lte'] as const) {
    const value = config[type];
    if (value !== undefined) operators.push({ type, value });
  }
  if (config.contains !== undefined) operators.push({ type: 'contains', value: config.contains });
  if (config.regex !== undefined) {
    // The schema already refused unsafe or invalid patterns; this cannot fail for a validated document.
    const regex = compileSafeRegex(config.regex);
    if (typeof regex === 'string') throw new Error(regex);
    operators.push({ type: 'regex', regex });
  }
  return operators;
}

/** Whether `actual` (undefined = absent) satisfies one operator; an over-long regex input counts as a match. */
export function testOperator(operator: ConditionOperator, actual: unknown): boolean {
  return evaluateOperator(operator, actual) !== false;
}

/** Whether `actual` (undefined = absent) satisfies one operator, or why that cannot be told. */
export function evaluateOperator(operator: ConditionOperator, actual: unknown): boolean | Unevaluable {
  switch (operator.type) {
    case 'eq':
      return actual !== undefined && sameValue(actual, operator.value);
    case 'neq':
      // An absent field is not "different": neq never matches what is not there.
      return actual !== undefined && !sameValue(actual, operator.value);
    case 'gt':
      return typeof actual === 'number' && actual > operator.value;
    case 'gte':
      return typeof actual === 'number' && actual >= operator.value;
    case 'lt':
      return typeof actual === 'number' && actual < operator.value;
    case 'lte':
      return typeof actual === 'number' && actual <= operator.value;
    case 'contains':
      return typeof actual === 'string' && actual.includes(operator.value);
    case 'regex':
      if (typeof actual !== 'string') return false;
      if (actual.length > MAX_REGEX_INPUT_LENGTH) {
        return {
          unevaluable: `a value of ${actual.length} characters is longer than the ${MAX_REGEX_INPUT_LENGTH} a regex condition tests`,
        };
      }
      return operator.regex.test(actual);
    default:
      return assertNever(operator);
  }
}

/**
 * The conditions' verdict; an unevaluable condition counts as a match (a budget contributor then
 * charges the call rather than letting it pass uncounted). The rule engine uses
 * {@link evaluateInputConditions} to tell the two apart.
 */
export function matchInputConditions(conditions: readonly InputCondition[], args: unknown): boolean {
  return evaluateInputConditions(conditions, args) !== false;
}

/** AND of the conditions: false as soon as one fails; unevaluable only when none fails. */
export function evaluateInputConditions(
  conditions: readonly InputCondition[],
  args: unknown,
): ConditionOutcome {
  if (conditions.length === 0) return true;
  // Conditions on a call without arguments never match (they have nothing to test).
  if (args === undefined || args === null) return false;
  let outcome: ConditionOutcome = true;
  for (const condition of conditions) {
    const result = evaluateOperator(condition.operator, resolveDotPath(args, condition.path));
    if (result === false) return false;
    if (result !== true && outcome === true)
      outcome = { unevaluable: `input.${condition.path.join('.')}: ${result.unevaluable}` };
  }
  return outcome;
}

/**
 * Conditions on the adapter's metadata plus the virtual `agent_id`, which shadows any literal key of
 * that name. Read in place: no merged copy of the metadata per call.
 */
export function evaluateMetadataConditions(
  conditions: readonly MetadataCondition[],
  metadata: Readonly<Record<string, unknown>> | null | undefined,
  agentId: string | null | undefined,
): ConditionOutcome {
  let outcome: ConditionOutcome = true;
  for (const condition of conditions) {
    const value = metadataValue(metadata, agentId, condition.key);
    if (typeof value !== 'string') return false;
    const result = evaluateOperator(condition.operator, value);
    if (result === false) return false;
    if (result !== true && outcome === true)
      outcome = { unevaluable: `metadata.${condition.key}: ${result.unevaluable}` };
  }
  return outcome;
}

function metadataValue(
  metadata: Readonly<Record<string, unknown>> | null | undefined,
  agentId: string | null | undefined,
  key: string,
): unknown {
  if (key === 'agent_id' && agentId !== null && agentId !== undefined) return agentId;
  if (metadata === null || metadata === undefined || !Object.hasOwn(metadata, key)) return undefined;
  return metadata[key];
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return canonicalJson(a) === canonicalJson(b);
}

export function assertNever(value: never): never {
  throw new Error(`unexpected variant: ${JSON.stringify(value)}`);
}
