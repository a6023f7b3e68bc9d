import { AssertionError } from 'node:assert';
import { describe, expect, it } from 'vitest';
import { isProgrammingError } from './programming-error.js';

describe('isProgrammingError', () => {
  it('is true for non-Error throws, engine defect classes and assertions', () => {
    for (const error of [
      'text',
      { code: 1 },
      undefined,
      new ReferenceError('x'),
      new SyntaxError('x'),
      new EvalError('x'),
      new RangeError('Maximum call stack size exceeded'),
      new AssertionError({ message: 'x' }),
      Object.assign(new Error('x'), { code: 'ERR_ASSERTION' }),
    ]) {
      expect(isProgrammingError(error), String(error)).toBe(true);
    }
  });

  it('is false for ordinary errors, TypeError included (fetch throws it for network failures)', () => {
    for (const error of [
      new Error('x'),
      new TypeError('fetch failed'),
      new DOMException('stop', 'AbortError'),
    ]) {
      expect(isProgrammingError(error)).toBe(false);
    }
  });
});
