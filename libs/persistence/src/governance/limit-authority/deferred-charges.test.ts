import { describe, expect, it, vi } from 'vitest';
import { DeferredCharges } from './deferred-charges.js';

const rows = (reservationId: string) => ({
  reservationId,
  charges: [{ b: 'bucket-a', r: reservationId, a: '1', t: 5 }],
  ledger: [],
});

describe('DeferredCharges.carryNow (a commit with no evaluation to carry its rows)', () => {
  it('keeps a hand-back waiting while the rows are being written, and leaves it nothing once written', async () => {
    const onWritten = vi.fn();
    const deferred = new DeferredCharges('owner-1', onWritten);
    const write = deferred.carryNow(rows('r1'), ['key']);
    expect(write?.charges).toEqual(rows('r1').charges);
    let taken = false;
    const handBack = deferred.takeBucketsWhenIdle(new Set(['bucket-a'])).then((part) => {
      taken = true;
      return part;
    });
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(taken).toBe(false);
    write?.settle(true);
    expect((await handBack).charges).toEqual([]);
    // No record answers a retry of such a commit: its memory is kept.
    expect(onWritten).not.toHaveBeenCalled();
    expect(deferred.size).toBe(0);
  });

  it('gives a hand-back the rows whose statement failed, so they are written once all the same', async () => {
    const deferred = new DeferredCharges('owner-1');
    deferred.carryNow(rows('r2'), ['key'])?.settle(false);
    expect(deferred.size).toBe(1);
    expect((await deferred.takeBucketsWhenIdle(new Set(['bucket-a']))).charges).toEqual(rows('r2').charges);
    expect(deferred.size).toBe(0);
  });

  it('carries nothing for a commit with no rows (a repeated one)', () => {
    const deferred = new DeferredCharges('owner-1');
    expect(deferred.carryNow({ reservationId: 'r3', charges: [], ledger: [] }, ['key'])).toBeUndefined();
  });
});

describe('DeferredCharges.carry (the rows a finalization statement carries)', () => {
  it('keeps a hand-back waiting only for statements that carry its buckets', async () => {
    const deferred = new DeferredCharges('owner-1');
    deferred.defer('e1', rows('r4'));
    const write = deferred.carry(['e1', 'e-none'], ['key']);
    expect(write?.charges).toEqual(rows('r4').charges);
    // bucket-b is carried by no running statement: its hand-back goes ahead at once.
    expect((await deferred.takeBucketsWhenIdle(new Set(['bucket-b']))).charges).toEqual([]);
    let taken = false;
    const handBack = deferred.takeBucketsWhenIdle(new Set(['bucket-a'])).then(() => (taken = true));
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(taken).toBe(false);
    write?.settle(true);
    await handBack;
    expect(taken).toBe(true);
  });
});

describe('DeferredCharges.abandon (the owner was taken over: nothing of it can land)', () => {
  it("gives up the waiting rows now, and a running statement's rows once it fails, naming their evaluations", () => {
    const deferred = new DeferredCharges('owner-1');
    deferred.defer('e-waiting', rows('r6'));
    deferred.defer('e-running', rows('r7'));
    deferred.carryNow(rows('r8'), ['key'])?.settle(false);
    const running = deferred.carry(['e-running'], ['key']);
    const voided = vi.fn();
    deferred.abandon(voided);
    // A commit without an evaluation has no finalization to fail: it is dropped unnamed.
    expect(voided.mock.calls).toEqual([[['e-waiting']]]);
    expect(deferred.size).toBe(0);
    running?.settle(false);
    expect(voided.mock.calls).toEqual([[['e-waiting']], [['e-running']]]);
    expect(deferred.size).toBe(0);
    expect(deferred.carry(['e-waiting', 'e-running'], ['key'])).toBeUndefined();
  });
});
