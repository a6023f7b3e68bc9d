import { describe, expect, it } from 'vitest';
import { abortReason, delay, isAbortError, raceAbort, throwIfAborted } from './abort.js';
import { InvalidArgumentError } from './helios-error.js';
import { newId } from './ids.js';
import { assertNever, requireNonNegativeNumber } from './validate.js';

describe('abort helpers', () => {
  it('turns reasons into errors', () => {
    const error = new Error('mine');
    expect(abortReason(AbortSignal.abort(error))).toBe(error);
    expect(abortReason(AbortSignal.abort())).toMatchObject({ name: 'AbortError' });
    expect(abortReason(AbortSignal.abort('text'))).toMatchObject({ name: 'AbortError', message: 'text' });
    const undefinedReason = { aborted: true, reason: undefined } as AbortSignal;
    expect(abortReason(undefinedReason).message).toBe('The operation was aborted');
    expect(isAbortError(new DOMException('x', 'AbortError'))).toBe(true);
    expect(isAbortError(new Error('x'))).toBe(false);
    expect(isAbortError('AbortError')).toBe(false);
    expect(() => throwIfAborted(AbortSignal.abort())).toThrow();
    expect(() => throwIfAborted(undefined)).not.toThrow();
  });

  it('races promises against a signal', async () => {
    expect(await raceAbort(Promise.resolve(1), undefined)).toBe(1);
    expect(await raceAbort(Promise.resolve(2), new AbortController().signal)).toBe(2);
    await expect(raceAbort(Promise.reject(new Error('own')), new AbortController().signal)).rejects.toThrow(
      'own',
    );
    await expect(
      raceAbort(Promise.reject(new Error('late')), AbortSignal.abort(new Error('first'))),
    ).rejects.toThrow('first');
    const controller = new AbortController();
    const pending = raceAbort(new Promise(() => undefined), controller.signal);
    controller.abort(new Error('now'));
    await expect(pending).rejects.toThrow('now');
  });

  it('delays and ends a delay on abort', async () => {
    await expect(delay(1)).resolves.toBeUndefined();
    await expect(delay(1, new AbortController().signal)).resolves.toBeUndefined();
    await expect(delay(1, AbortSignal.abort(new Error('pre')))).rejects.toThrow('pre');
    const controller = new AbortController();
    const waiting = delay(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});

describe('ids and checks', () => {
  it('makes time-ordered UUIDv7 ids', () => {
    const a = newId(1_700_000_000_000);
    const b = newId(1_700_000_000_000);
    const c = newId(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b && b < c).toBe(true);
    expect(newId()).not.toBe(newId());
  });

  it('throws InvalidArgumentError with a stable code', () => {
    expect(() => requireNonNegativeNumber(-1, 'x')).toThrow(InvalidArgumentError);
    expect(() => assertNever('odd' as never, 'thing')).toThrow('unknown thing: "odd"');
    expect(new InvalidArgumentError('m')).toMatchObject({
      code: 'INVALID_ARGUMENT',
      name: 'InvalidArgumentError',
    });
  });
});
