import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './retry-after.js';

const headers = (values: Record<string, string>) => new Headers(values);

describe('retryAfterMs', () => {
  it('reads retry-after-ms first, then retry-after in seconds or as an HTTP date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '1500', 'retry-after': '9' }))).toBe(1500);
    expect(retryAfterMs(headers({ 'retry-after': '2' }))).toBe(2000);
    const now = () => Date.parse('2026-12-01T10:00:00Z');
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 01 Dec 2026 10:00:30 GMT' }), now)).toBe(30_000);
    expect(retryAfterMs(headers({ 'retry-after': 'Tue, 01 Dec 2026 09:59:00 GMT' }), now)).toBe(0);
  });

  it('ignores what says nothing usable, and caps a wait at one day', () => {
    expect(retryAfterMs(headers({}))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': ' ' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': '-3' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeUndefined();
    expect(retryAfterMs(headers({ 'retry-after-ms': 'x', 'retry-after': '1' }))).toBe(1000);
    expect(retryAfterMs(headers({ 'retry-after': String(10 * 24 * 3600) }))).toBe(24 * 3600 * 1000);
  });
});
