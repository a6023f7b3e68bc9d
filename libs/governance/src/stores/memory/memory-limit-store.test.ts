import { describe, expect, it } from 'vitest';
import { MemoryLimitStore } from './memory-limit-store.js';
import { type BucketCheck } from '../limit-store.js';

const check = (overrides: Partial<BucketCheck> = {}): BucketCheck => ({
  family: 'budget',
  key: 'budget:p:session:s',
  epoch: 1,
  amount: 2n,
  limit: 5n,
  window: { type: 'session', idleTtlMs: 1_000 },
  onBreach: 'refuse',
  senderScoped: false,
  ...overrides,
});

describe('MemoryLimitStore', () => {
  it('session pots never replenish while active and are collected after idle_ttl', async () => {
    const store = new MemoryLimitStore();
    const context = { auditRecordId: 'a', toolName: 't', origin: 'o' };
    await store.reserve({ reservationId: 'r1', checks: [check()], expiresAtMs: 10_000, maxSenderKeys: 1 }, 0);
    await store.commit('r1', [check()], context, 0);
    expect(await store.commit('r1', [check()], context, 0)).toHaveLength(1);
    expect(store.usage(check(), 500)).toBe(2n);
    expect((await store.peek([check({ amount: 4n })], 900))[0]).toMatchObject({
      used: 2n,
      allowed: false,
      resetAtMs: null,
    });
    expect((await store.peek([check({ amount: 4n })], 2_000))[0]).toMatchObject({ used: 0n, allowed: true });
  });

  it('holds expire on their own, so a crashed caller never pins capacity', async () => {
    const store = new MemoryLimitStore();
    const sliding = check({ window: { type: 'sliding', ms: 60_000 }, amount: 5n });
    expect(
      (await store.reserve({ reservationId: 'r', checks: [sliding], expiresAtMs: 100, maxSenderKeys: 1 }, 0))
        .type,
    ).toBe('reserved');
    expect(
      (await store.reserve({ reservationId: 'q', checks: [sliding], expiresAtMs: 100, maxSenderKeys: 1 }, 50))
        .type,
    ).toBe('refused');
    expect(
      (
        await store.reserve(
          { reservationId: 'q', checks: [sliding], expiresAtMs: 300, maxSenderKeys: 1 },
          100,
        )
      ).type,
    ).toBe('reserved');
  });

  it('a reconfigured window starts the bucket over', async () => {
    const store = new MemoryLimitStore();
    await store.reserve({ reservationId: 'r', checks: [check()], expiresAtMs: 100, maxSenderKeys: 1 }, 0);
    const resized = check({ window: { type: 'sliding', ms: 10 } });
    expect((await store.peek([resized], 1))[0]).toMatchObject({ used: 0n, resetAtMs: 11 });
  });

  it('retires a budget the policy dropped: added back unchanged, it starts a fresh epoch', async () => {
    const store = new MemoryLimitStore();
    const pot = { name: 'p', identity: '[10,"USD","1h","global"]' };
    expect(Object.fromEntries(await store.reconcileBudgets([pot]))).toEqual({ p: 1 });
    expect(Object.fromEntries(await store.reconcileBudgets([pot]))).toEqual({ p: 1 });
    await store.reconcileBudgets([]);
    expect(Object.fromEntries(await store.reconcileBudgets([pot]))).toEqual({ p: 2 });
    expect(Object.fromEntries(await store.reconcileBudgets([pot]))).toEqual({ p: 2 });
  });
});
