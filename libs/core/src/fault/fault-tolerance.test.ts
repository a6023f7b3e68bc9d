import { describe, expect, it, vi } from 'vitest';
import { Backoff } from './backoff.js';
import { CircuitBreaker, CircuitState } from './circuit-breaker.js';
import { CircuitBreakerOpenError, OperationTimeoutError, RetryExhaustedError } from './fault-errors.js';
import { FaultTolerance } from './fault-tolerance.js';
import { RetryPolicy } from './retry-policy.js';

const retry = new RetryPolicy({ maxAttempts: 3, backoff: Backoff.fixed(1), jitter: 0 });

describe('FaultTolerance', () => {
  it('passes through without options', async () => {
    expect(await FaultTolerance.PASSTHROUGH.execute(() => Promise.resolve(1))).toBe(1);
  });

  it('retries inside the breaker: one breaker failure per exhausted operation', async () => {
    const breaker = new CircuitBreaker({ failureThreshold: 1 });
    const ft = new FaultTolerance({ retry, circuitBreaker: breaker });
    const operation = vi.fn().mockRejectedValue(new Error('down'));
    await expect(ft.execute(operation)).rejects.toBeInstanceOf(RetryExhaustedError);
    expect(operation).toHaveBeenCalledTimes(3);
    expect(breaker.state).toBe(CircuitState.OPEN);
    await expect(ft.execute(operation)).rejects.toBeInstanceOf(CircuitBreakerOpenError);
  });

  it('times out the whole operation and aborts its signal, even if it ignores it', async () => {
    const ft = new FaultTolerance({ operationTimeoutMs: 20 });
    let seen: AbortSignal | undefined;
    const error = await ft
      .execute((signal) => {
        seen = signal;
        return new Promise<never>(() => undefined);
      })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OperationTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 20, code: 'OPERATION_TIMEOUT' });
    expect(seen?.aborted).toBe(true);
  });

  it("ends with the caller's abort, at once, during backoff", async () => {
    const controller = new AbortController();
    const ft = new FaultTolerance({
      retry: new RetryPolicy({
        backoff: Backoff.fixed(60_000),
        jitter: 0,
        onRetry: () => controller.abort(new Error('user stop')),
      }),
    });
    await expect(ft.execute(() => Promise.reject(new Error('flaky')), controller.signal)).rejects.toThrow(
      'user stop',
    );
    await expect(ft.execute(() => Promise.resolve(1), controller.signal)).rejects.toThrow('user stop');
  });

  it('withoutRetry keeps breaker and timeout', async () => {
    const breaker = new CircuitBreaker();
    const ft = new FaultTolerance({ retry, circuitBreaker: breaker, operationTimeoutMs: 1000 });
    const bare = ft.withoutRetry();
    expect(bare.retry).toBeUndefined();
    expect(bare.circuitBreaker).toBe(breaker);
    expect(bare.operationTimeoutMs).toBe(1000);
    const operation = vi.fn().mockRejectedValue(new Error('once'));
    await expect(bare.execute(operation)).rejects.toThrow('once');
    expect(operation).toHaveBeenCalledTimes(1);
    expect(new FaultTolerance({}).withoutRetry()).toMatchObject({
      circuitBreaker: undefined,
      operationTimeoutMs: undefined,
    });
  });

  it('passes a thrown non-Error value through untouched', async () => {
    const ft = new FaultTolerance({ retry, circuitBreaker: new CircuitBreaker() });
    await expect(ft.execute(() => Promise.reject(42))).rejects.toBe(42);
  });

  it('refuses a non-positive timeout', () => {
    expect(() => new FaultTolerance({ operationTimeoutMs: 0 })).toThrow(/operationTimeoutMs/);
  });
});
