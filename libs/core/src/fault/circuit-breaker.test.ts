import { describe, expect, it } from 'vitest';
import { CircuitBreaker, CircuitState } from './circuit-breaker.js';
import { CircuitBreakerOpenError } from './fault-errors.js';

function breaker(options: { failureThreshold?: number; successThreshold?: number } = {}) {
  let now = 0;
  const cb = new CircuitBreaker({ halfOpenAfterMs: 1000, now: () => now, ...options });
  const transitions: string[] = [];
  cb.onStateChange((state, previous) => transitions.push(`${previous}->${state}`));
  return { cb, transitions, advance: (ms: number) => (now += ms) };
}

const fail = () => Promise.reject(new Error('boom'));
const succeed = () => Promise.resolve('ok');

describe('CircuitBreaker', () => {
  it('goes closed → open → half-open → closed', async () => {
    const { cb, transitions, advance } = breaker({ failureThreshold: 2 });
    await expect(cb.execute(fail)).rejects.toThrow('boom');
    expect(cb.state).toBe(CircuitState.CLOSED);
    expect(cb.failureCount).toBe(1);
    await expect(cb.execute(fail)).rejects.toThrow('boom');
    expect(cb.state).toBe(CircuitState.OPEN);
    await expect(cb.execute(succeed)).rejects.toBeInstanceOf(CircuitBreakerOpenError);
    advance(999);
    expect(cb.state).toBe(CircuitState.OPEN);
    advance(1);
    expect(cb.state).toBe(CircuitState.HALF_OPEN);
    expect(await cb.execute(succeed)).toBe('ok');
    expect(cb.state).toBe(CircuitState.CLOSED);
    expect(cb.failureCount).toBe(0);
    expect(transitions).toEqual(['CLOSED->OPEN', 'OPEN->HALF_OPEN', 'HALF_OPEN->CLOSED']);
  });

  it('a failed trial opens it again', async () => {
    const { cb, advance } = breaker({ failureThreshold: 1 });
    await expect(cb.execute(fail)).rejects.toThrow();
    advance(1000);
    await expect(cb.execute(fail)).rejects.toThrow('boom');
    expect(cb.state).toBe(CircuitState.OPEN);
  });

  it('admits one trial at a time when half-open', async () => {
    const { cb, advance } = breaker({ failureThreshold: 1, successThreshold: 2 });
    await expect(cb.execute(fail)).rejects.toThrow();
    advance(1000);
    let release: () => void = () => undefined;
    const trial = cb.execute(() => new Promise<string>((resolve) => (release = () => resolve('t'))));
    await expect(cb.execute(succeed)).rejects.toThrow(/HALF_OPEN/);
    release();
    expect(await trial).toBe('t');
    expect(cb.state).toBe(CircuitState.HALF_OPEN); // needs two successes
    await cb.execute(succeed);
    expect(cb.state).toBe(CircuitState.CLOSED);
  });

  it('a success resets the failure count; cancellations count as neither', async () => {
    const { cb } = breaker({ failureThreshold: 2 });
    await expect(cb.execute(fail)).rejects.toThrow();
    await cb.execute(succeed);
    await expect(cb.execute(fail)).rejects.toThrow();
    await expect(cb.execute(() => Promise.reject(new DOMException('x', 'AbortError')))).rejects.toThrow();
    expect(cb.state).toBe(CircuitState.CLOSED);
    expect(cb.failureCount).toBe(1);
  });

  it('counts non-Error throws as failures and passes them on', async () => {
    const { cb } = breaker({ failureThreshold: 1 });
    await expect(cb.execute(() => Promise.reject('text'))).rejects.toBe('text');
    expect(cb.state).toBe(CircuitState.OPEN);
  });

  it('resets and unsubscribes', async () => {
    const { cb, transitions } = breaker({ failureThreshold: 1 });
    const calls: string[] = [];
    const unsubscribe = cb.onStateChange((s) => calls.push(s));
    unsubscribe();
    await expect(cb.execute(fail)).rejects.toThrow();
    cb.reset();
    expect(cb.state).toBe(CircuitState.CLOSED);
    expect(calls).toEqual([]);
    expect(transitions).toEqual(['CLOSED->OPEN', 'OPEN->CLOSED']);
    expect(new CircuitBreaker()).toMatchObject({
      failureThreshold: 5,
      successThreshold: 1,
      halfOpenAfterMs: 30_000,
    });
  });
});
