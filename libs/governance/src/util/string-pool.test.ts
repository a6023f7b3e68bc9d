import { describe, expect, it } from 'vitest';
import { StringPool } from './string-pool.js';

describe('StringPool', () => {
  it('answers the first string it saw for an equal one, and starts afresh when full', () => {
    const pool = new StringPool(2);
    const first = ['read', '_file'].join('');
    expect(pool.intern(first)).toBe(first);
    expect(pool.intern(['read_', 'file'].join(''))).toBe(first);
    pool.intern('b');
    const third = 'c';
    expect(pool.intern(third)).toBe(third); // pool was full: cleared, then kept 'c'
    expect(pool.intern('read_file')).toBe('read_file');
  });
});
