import { describe, expect, it } from 'vitest';
import { MemoryEvidenceStore } from './memory-evidence-store.js';

const HOUR = 60 * 60 * 1_000;
const caps = { maxSessions: 2, maxBytes: 10_000 };
const write = (key: string, data: unknown = 'x') => ({ key, data, toolName: 'search' });

describe('MemoryEvidenceStore idle eviction', () => {
  it('at the session cap, evicts the least recently active idle session; never an active one', async () => {
    const store = new MemoryEvidenceStore({ idleTtlMs: HOUR });
    expect(await store.put('a', write('k'), 0, caps)).toBe('Stored');
    expect(await store.put('b', write('k'), 10, caps)).toBe('Stored');
    expect(await store.put('c', write('k'), HOUR - 1, caps)).toBe('CapacityExhausted');
    await store.recordToolCall('a', 'search', true, HOUR, caps); // a is active again; b is now the oldest
    expect(await store.put('c', write('k'), HOUR + 10, caps)).toBe('Stored');
    expect((await store.grounding('b', HOUR + 10)).evidence.size).toBe(0); // reads as never seen
    expect((await store.sessionState('a', HOUR + 10)).completedTools).toEqual([
      { toolName: 'search', succeeded: true, lastCallAtMs: HOUR },
    ]);
  });

  it("frees an evicted session's bytes for the byte cap", async () => {
    const store = new MemoryEvidenceStore({ idleTtlMs: HOUR });
    const small = { maxSessions: 10, maxBytes: 40 };
    expect(await store.put('a', write('k', 'y'.repeat(20)), 0, small)).toBe('Stored');
    expect(await store.putContext('b', 'k', 'z'.repeat(20), 1, small)).toBe('CapacityExhausted');
    expect(await store.putContext('b', 'k', 'z'.repeat(20), HOUR, small)).toBe('Stored');
    expect((await store.sessionState('a', HOUR)).evidence).toEqual([]);
  });

  it('sweeps idle sessions from the least recently active, and counts what it dropped', async () => {
    const store = new MemoryEvidenceStore({ idleTtlMs: HOUR });
    const roomy = { maxSessions: 10, maxBytes: 10_000 };
    await store.put('a', write('k'), 0, roomy);
    await store.putContext('b', 'k', 1, 5, roomy);
    await store.recordToolCall('c', 'search', false, 20, roomy);
    await store.grounding('a', 30); // a grounded call is activity too
    expect(store.evictIdle(HOUR + 5)).toBe(1); // b
    expect(store.evictIdle(HOUR + 5)).toBe(0);
    expect(store.evictIdle(HOUR + 30)).toBe(2); // c, then a
    expect((await store.sessionState('a', HOUR + 30)).evidence).toEqual([]);
  });

  it('refuses an idle TTL that is not a positive integer', () => {
    expect(() => new MemoryEvidenceStore({ idleTtlMs: 0 })).toThrow(/idleTtlMs/);
    expect(() => new MemoryEvidenceStore({ idleTtlMs: 1.5 })).toThrow(/idleTtlMs/);
  });
});
