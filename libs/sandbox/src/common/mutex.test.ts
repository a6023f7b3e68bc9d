import { describe, expect, it } from 'vitest';
import { Mutex } from './mutex.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Mutex', () => {
  it('runs work one at a time, in arrival order, also after a failure', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const job = (name: string, ms: number, fail = false) =>
      mutex.run(async () => {
        log.push(`start ${name}`);
        await tick(ms);
        log.push(`end ${name}`);
        if (fail) throw new Error(name);
        return name;
      });
    const results = await Promise.allSettled([job('a', 20), job('b', 1, true), job('c', 1)]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
  });

  it('lets a waiter give up when its signal fires, without ever holding the lock', async () => {
    const mutex = new Mutex();
    const log: string[] = [];
    const first = mutex.run(async () => {
      await tick(30);
      log.push('first');
    });
    const controller = new AbortController();
    const second = mutex.run(async () => log.push('second'), controller.signal);
    const third = mutex.run(async () => log.push('third'));
    controller.abort(new Error('gave up'));
    await expect(second).rejects.toThrow('gave up');
    await Promise.all([first, third]);
    expect(log).toEqual(['first', 'third']);
    await expect(mutex.run(async () => 1, AbortSignal.abort(new Error('already')))).rejects.toThrow(
      'already',
    );
  });
});
