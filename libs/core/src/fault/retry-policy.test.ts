import { describe, expect, it, vi } from 'vitest';
import { Backoff } from './backoff.js';
import { RetryExhaustedError } from './fault-errors.js';
import { RetryPolicy } from './retry-policy.js';

const fast = (options: ConstructorParameters<typeof RetryPolicy>[0] = {}) =>
  new RetryPolicy({ backoff: Backoff.fixed(1), jitter: 0, ...options });

describe('Backoff', () => {
  it('grows exponentially up to its cap', () => {
    const backoff = Backoff.exponential(500, 2, 3000);
    expect([1, 2, 3, 4, 5].map((attempt) => Backoff.delayMs(backoff, attempt))).toEqual([
      500, 1000, 2000, 3000, 3000,
    ]);
    expect(Backoff.delayMs(Backoff.fixed(7), 9)).toBe(7);
    expect(Backoff.delayMs(Backoff.exponential(100), 0)).toBe(100);
  });

  it('spreads delays by ±jitter, clamped', () => {
    const backoff = Backoff.fixed(1000);
    expect(Backoff.jitteredDelayMs(backoff, 1, { jitter: 0.1, random: () => 0 })).toBe(900);
    expect(Backoff.jitteredDelayMs(backoff, 1, { jitter: 0.1, random: () => 1 })).toBe(1100);
    expect(Backoff.jitteredDelayMs(backoff, 1, { jitter: 5, random: () => 0 })).toBe(0);
    expect(Backoff.jitteredDelayMs(backoff, 1, { jitter: -1, random: () => 0 })).toBe(1000);
    const sample = Backoff.jitteredDelayMs(backoff, 1, { jitter: 0.5 });
    expect(sample).toBeGreaterThanOrEqual(500);
    expect(sample).toBeLessThanOrEqual(1500);
  });

  it('refuses bad parameters', () => {
    expect(() => Backoff.exponential(1, 0.5)).toThrow(/multiplier/);
    expect(() => Backoff.fixed(-1)).toThrow(/delayMs/);
  });
});

describe('RetryPolicy', () => {
  it('retries until success', async () => {
    const operation = vi.fn().mockRejectedValueOnce(new Error('flaky')).mockResolvedValueOnce('ok');
    const onRetry = vi.fn();
    expect(await fast({ onRetry }).execute(operation)).toBe('ok');
    expect(operation).toHaveBeenCalledTimes(2);
    expect(onRetry).toHaveBeenCalledWith(expect.objectContaining({ attempt: 1, delayMs: 1 }));
  });

  it('gives up after maxAttempts with the last cause', async () => {
    const operation = vi.fn().mockRejectedValue(new Error('down'));
    const error = await fast({ maxAttempts: 3 })
      .execute(operation)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryExhaustedError);
    expect(error).toMatchObject({
      attempts: 3,
      code: 'RETRY_EXHAUSTED',
      message: 'gave up after 3 attempt(s): down',
    });
    expect((error as Error).cause).toEqual(new Error('down'));
    expect(operation).toHaveBeenCalledTimes(3);
  });

  it('a non-retryable error ends at once with RetryExhaustedError carrying it', async () => {
    const fatal = new Error('400 bad request');
    const operation = vi.fn().mockRejectedValue(fatal);
    const error = await fast({ retryOn: (e) => !e.message.startsWith('400') })
      .execute(operation)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryExhaustedError);
    expect(error).toMatchObject({ attempts: 1, cause: fatal, suppressed: [] });
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('a non-retryable error after retries reports the attempts made', async () => {
    const operation = vi
      .fn()
      .mockRejectedValueOnce(new Error('503 busy'))
      .mockRejectedValueOnce(new Error('400 bad request'));
    const error = await fast({ maxAttempts: 5, retryOn: (e) => e.message.startsWith('503') })
      .execute(operation)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ attempts: 2, message: 'gave up after 2 attempt(s): 400 bad request' });
  });

  it('a retryOn predicate that throws stops retrying; its error is kept, never thrown raw', async () => {
    const down = new Error('down');
    const broken = new TypeError('predicate bug');
    const operation = vi.fn().mockRejectedValue(down);
    const error = await fast({
      retryOn: () => {
        throw broken;
      },
    })
      .execute(operation)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RetryExhaustedError);
    expect(error).toMatchObject({ attempts: 1, cause: down, suppressed: [broken] });
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('never retries a programming error, and throws that same instance', async () => {
    const bug = new ReferenceError('x is not defined');
    let calls = 0;
    const policy = new RetryPolicy({ maxAttempts: 5, retryOn: () => true });
    await expect(
      policy.execute(async () => {
        calls += 1;
        throw bug;
      }),
    ).rejects.toBe(bug);
    expect(calls).toBe(1);
  });

  it('never retries an AbortError', async () => {
    const operation = vi.fn().mockRejectedValue(new DOMException('stop', 'AbortError'));
    await expect(fast().execute(operation)).rejects.toMatchObject({ name: 'AbortError' });
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('does not swallow a thrown non-Error value', async () => {
    const operation = vi.fn().mockRejectedValue({ weird: true });
    await expect(fast().execute(operation)).rejects.toEqual({ weird: true });
    expect(operation).toHaveBeenCalledTimes(1);
  });

  it('ends at once when aborted during backoff', async () => {
    const controller = new AbortController();
    const policy = new RetryPolicy({
      backoff: Backoff.fixed(60_000),
      jitter: 0,
      onRetry: () => controller.abort(new Error('cancelled')),
    });
    const started = Date.now();
    await expect(policy.execute(() => Promise.reject(new Error('flaky')), controller.signal)).rejects.toThrow(
      'cancelled',
    );
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not start when already aborted', async () => {
    const operation = vi.fn();
    await expect(fast().execute(operation, AbortSignal.abort())).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(operation).not.toHaveBeenCalled();
  });

  it('has defaults and refuses zero attempts', () => {
    expect(new RetryPolicy()).toMatchObject({
      maxAttempts: 3,
      jitter: 0.1,
      backoff: { type: 'Exponential', initialMs: 500, multiplier: 2 },
    });
    expect(() => new RetryPolicy({ maxAttempts: 0 })).toThrow(/maxAttempts/);
  });
});
