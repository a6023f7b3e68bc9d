/**
 * Bounded-growth caps. A token-bearing adapter is in the threat model, so every caller-controlled
 * growth vector has a ceiling; each breach fails closed with the seed's code. Defaults are the seed's
 * numbers; each is configurable so deployments (and tests) can move them.
 */
import { z } from 'zod';
import { PolicyConfigError, formatIssuePath } from './policy-config-error.js';

const KiB = 1_024;
const MiB = 1_024 * KiB;

/**
 * Longest string (UTF-16 code units) a policy `regex` condition is run on. RE2 matching is linear, so
 * this bounds each match to a few milliseconds; a longer value makes the condition unevaluable, which
 * denies the call (engine/match-rules.ts). The default `maxToolInputBytes` keeps every argument below it.
 */
export const MAX_REGEX_INPUT_LENGTH = 64 * KiB;

export interface GovernanceLimits {
  /** Distinct adapter origins (`origin_limit_exceeded`). */
  readonly maxOrigins: number;
  /** Baselined tool definitions per origin, first-seen only (`tool_baseline_limit`). */
  readonly maxToolsPerOrigin: number;
  /** Serialized tool definition the drift guard keeps a copy of (`tool_definition_too_large`). */
  readonly maxToolDefinitionBytes: number;
  /**
   * Serialized definitions kept per origin, baselines and current ones together
   * (`tool_baseline_limit`): with `maxOrigins`, what bounds the drift guard's memory.
   */
  readonly maxToolDefinitionBytesPerOrigin: number;
  /** Serialized `arguments` (`tool_input_too_large`). */
  readonly maxToolInputBytes: number;
  /** Serialized `metadata` (`metadata_too_large`). */
  readonly maxMetadataBytes: number;
  /** Pending evaluations by count (`evaluation_backlog_full`). */
  readonly maxPendingEvaluations: number;
  /** Pending evaluations by serialized footprint (`evaluation_backlog_full`). */
  readonly maxPendingBytes: number;
  /** Distinct live sender-derived limit/budget buckets (`limit_capacity_exhausted`). */
  readonly maxSenderKeys: number;
  /** Evidence entries accepted per /audit; the excess is reported `too_many`. */
  readonly maxEvidenceEntries: number;
  /**
   * Serialized `evidence_data` per entry (larger /audit entries are reported `too_large`, a larger
   * POST /evidence is refused `evidence_too_large`) and `value` per POST /context (`context_too_large`).
   */
  readonly maxEvidenceBytes: number;
  /** Distinct sessions holding evidence, context or tool history (`session_capacity_exhausted`). */
  readonly maxSessions: number;
  /** Serialized bytes of all stored evidence, context and tool history (`session_capacity_exhausted`). */
  readonly maxSessionBytes: number;
  /**
   * Milliseconds after its last activity a session's evidence, context and tool history may be
   * evicted (at a cap, and by the periodic sweep); an evicted session's grounded calls fail closed.
   */
  readonly sessionIdleTtlMs: number;
  /**
   * Deepest nesting of objects and arrays in a request, the request itself being level 1
   * (`json_too_deep`): far beyond any tool call's arguments, far below what overflows the stack of the
   * recursive walks after it (`JSON.stringify` first). The listener checks the text, the engine the value.
   */
  readonly maxJsonDepth: number;
}

export const DEFAULT_GOVERNANCE_LIMITS: GovernanceLimits = Object.freeze({
  maxOrigins: 32,
  maxToolsPerOrigin: 1_024,
  maxToolDefinitionBytes: 64 * KiB,
  maxToolDefinitionBytesPerOrigin: 4 * MiB,
  maxToolInputBytes: 64 * KiB,
  maxMetadataBytes: 4 * KiB,
  maxPendingEvaluations: 10_000,
  maxPendingBytes: 64 * MiB,
  maxSenderKeys: 50_000,
  maxEvidenceEntries: 16,
  maxEvidenceBytes: 64 * KiB,
  maxSessions: 10_000,
  maxSessionBytes: 64 * MiB,
  sessionIdleTtlMs: 24 * 60 * 60 * 1_000,
  maxJsonDepth: 256,
});

const cap = z.number().int().positive();
const limitsSchema = z
  .object({
    maxOrigins: cap,
    maxToolsPerOrigin: cap,
    maxToolDefinitionBytes: cap,
    maxToolDefinitionBytesPerOrigin: cap,
    maxToolInputBytes: cap,
    maxMetadataBytes: cap,
    maxPendingEvaluations: cap,
    maxPendingBytes: cap,
    maxSenderKeys: cap,
    maxEvidenceEntries: cap,
    maxEvidenceBytes: cap,
    maxSessions: cap,
    maxSessionBytes: cap,
    sessionIdleTtlMs: cap,
    maxJsonDepth: cap,
  })
  .partial()
  .strict();

/** Defaults overlaid with `overrides`; throws {@link PolicyConfigError} for a non-positive or unknown cap. */
export function resolveGovernanceLimits(overrides: Partial<GovernanceLimits> = {}): GovernanceLimits {
  const parsed = limitsSchema.safeParse(overrides);
  if (!parsed.success) {
    throw new PolicyConfigError(
      parsed.error.issues.map((issue) => ({
        path: formatIssuePath(['limits', ...issue.path, ...('keys' in issue ? issue.keys : [])]),
        message: issue.message,
      })),
    );
  }
  return Object.freeze({ ...DEFAULT_GOVERNANCE_LIMITS, ...parsed.data });
}
