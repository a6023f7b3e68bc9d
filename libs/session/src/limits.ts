/**
 * Per-run limits, concurrency caps and the stream retry policy, with the reference's defaults. Durations
 * are milliseconds; money is integer micro-USD.
 */
import { Backoff, InvalidArgumentError } from '@helios/core';

export interface StreamRetryPolicy {
  /** Attempts per model turn, first included; only TransientStreamError is retried. */
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  /** Fraction of each backoff spread randomly. */
  readonly jitter: number;
}

export const StreamRetryPolicy = {
  /** 3 attempts, 1 s × 4 capped at 30 s (1 s, 4 s), jitter 0.25. */
  DEFAULT: Object.freeze({
    maxAttempts: 3,
    backoff: Backoff.exponential(1_000, 4, 30_000),
    jitter: 0.25,
  }) as StreamRetryPolicy,
  disabled(): StreamRetryPolicy {
    return Object.freeze({ maxAttempts: 1, backoff: Backoff.fixed(0), jitter: 0 });
  },
} as const;

export interface SessionLimits {
  /** Model turns per run. */
  readonly maxTurns: number;
  /** Spend per run; undefined = unlimited. Exceeding it (strictly) ends the run. */
  readonly maxBudgetMicroUsd: bigint | undefined;
  /** Per run, also enforced by a hard timer. */
  readonly maxWallClockMs: number;
  readonly toolTimeoutDefaultMs: number;
  /** 0 = automatic: the model's window − 20,000, or 180,000 when unknown. */
  readonly maxContextTokens: number;
  readonly streamIdleTimeoutMs: number;
  /** One deadline for close(): the run's end and the teardown. */
  readonly stopGraceMs: number;
  readonly streamRetry: StreamRetryPolicy;
}

export interface ConcurrencyLimits {
  /** READ, SEARCH, CONTROL, NETWORK, DELEGATION tools in flight. */
  readonly maxConcurrentToolCalls: number;
  readonly maxConcurrentFileWrites: number;
  readonly maxConcurrentExecutions: number;
  /** Steering messages a run may hold before `send` refuses. */
  readonly maxQueuedUserMessages: number;
}

export const DEFAULT_LIMITS: SessionLimits = Object.freeze({
  maxTurns: 100,
  maxBudgetMicroUsd: undefined,
  maxWallClockMs: 60 * 60_000,
  toolTimeoutDefaultMs: 2 * 60_000,
  maxContextTokens: 0,
  streamIdleTimeoutMs: 60_000,
  stopGraceMs: 5_000,
  streamRetry: StreamRetryPolicy.DEFAULT,
});

export const DEFAULT_CONCURRENCY: ConcurrencyLimits = Object.freeze({
  maxConcurrentToolCalls: 32,
  maxConcurrentFileWrites: 4,
  maxConcurrentExecutions: 2,
  maxQueuedUserMessages: 256,
});

const CONTEXT_RESERVE_TOKENS = 20_000;
const FALLBACK_CONTEXT_TOKENS = 180_000;

function positive(value: number, field: string): number {
  if (!Number.isFinite(value) || value <= 0) {
    throw new InvalidArgumentError(`${field} must be > 0, got ${String(value)}`);
  }
  return value;
}

function positiveInteger(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) {
    throw new InvalidArgumentError(`${field} must be a positive integer, got ${String(value)}`);
  }
  return value;
}

export function resolveLimits(partial: Partial<SessionLimits> = {}): SessionLimits {
  const limits = { ...DEFAULT_LIMITS, ...partial };
  positiveInteger(limits.maxTurns, 'maxTurns');
  if (limits.maxBudgetMicroUsd !== undefined && limits.maxBudgetMicroUsd <= 0n) {
    throw new InvalidArgumentError('maxBudgetMicroUsd must be > 0 when set');
  }
  positive(limits.maxWallClockMs, 'maxWallClockMs');
  positive(limits.toolTimeoutDefaultMs, 'toolTimeoutDefaultMs');
  positive(limits.streamIdleTimeoutMs, 'streamIdleTimeoutMs');
  positive(limits.stopGraceMs, 'stopGraceMs');
  if (!Number.isSafeInteger(limits.maxContextTokens) || limits.maxContextTokens < 0) {
    throw new InvalidArgumentError('maxContextTokens must be a non-negative integer');
  }
  positiveInteger(limits.streamRetry.maxAttempts, 'streamRetry.maxAttempts');
  return Object.freeze(limits);
}

export function resolveConcurrency(partial: Partial<ConcurrencyLimits> = {}): ConcurrencyLimits {
  const limits = { ...DEFAULT_CONCURRENCY, ...partial };
  positiveInteger(limits.maxConcurrentToolCalls, 'maxConcurrentToolCalls');
  positiveInteger(limits.maxConcurrentFileWrites, 'maxConcurrentFileWrites');
  positiveInteger(limits.maxConcurrentExecutions, 'maxConcurrentExecutions');
  positiveInteger(limits.maxQueuedUserMessages, 'maxQueuedUserMessages');
  return Object.freeze(limits);
}

/** min(user cap, window − 20,000) when both are known; either alone; else 180,000. */
export function effectiveContextTokens(maxContextTokens: number, contextWindow: number): number {
  const fromWindow = contextWindow > CONTEXT_RESERVE_TOKENS ? contextWindow - CONTEXT_RESERVE_TOKENS : 0;
  if (maxContextTokens > 0 && fromWindow > 0) return Math.min(maxContextTokens, fromWindow);
  if (maxContextTokens > 0) return maxContextTokens;
  if (fromWindow > 0) return fromWindow;
  return FALLBACK_CONTEXT_TOKENS;
}
