import { describe, expect, it } from 'vitest';
import { listenForAbort } from './abort-fanout.js';

describe('listenForAbort', () => {
  it('tells every waiter still registered, once, with the reason', () => {
    const controller = new AbortController();
    const heard: string[] = [];
    const waiter = (name: string) => (reason: unknown) => void heard.push(`${name}:${String(reason)}`);
    const a = listenForAbort(controller.signal, waiter('a'));
    const b = listenForAbort(controller.signal, waiter('b'));
    const c = listenForAbort(controller.signal, waiter('c'));
    a.cancel();
    a.cancel();
    controller.abort('stop');
    expect(heard.sort()).toEqual(['b:stop', 'c:stop']);
    b.cancel();
    c.cancel();
    controller.abort('again');
    expect(heard).toHaveLength(2);
  });

  it('keeps the others registered whichever one is cancelled', () => {
    const controller = new AbortController();
    const heard: number[] = [];
    const subscriptions = [0, 1, 2, 3].map((n) =>
      listenForAbort(controller.signal, () => void heard.push(n)),
    );
    subscriptions[1]?.cancel();
    subscriptions[3]?.cancel();
    subscriptions[0]?.cancel();
    controller.abort();
    expect(heard).toEqual([2]);
  });

  it('keeps signals apart', () => {
    const first = new AbortController();
    const second = new AbortController();
    const heard: string[] = [];
    listenForAbort(first.signal, () => void heard.push('first'));
    listenForAbort(second.signal, () => void heard.push('second'));
    second.abort();
    expect(heard).toEqual(['second']);
  });
});
