import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { ChildRegistry, type HostProcess, killGroup } from './live-children.js';

class FakeProcess extends EventEmitter implements HostProcess {
  readonly pid = 4242;
  readonly kills: [number, string | undefined][] = [];
  kill(pid: number, signal?: NodeJS.Signals): boolean {
    this.kills.push([pid, signal]);
    return true;
  }
}

describe('ChildRegistry', () => {
  it('hooks exit and the signals while a child is alive, and unhooks after the last', () => {
    const host = new FakeProcess();
    const registry = new ChildRegistry(host);
    const untrackA = registry.track(1, () => undefined);
    const untrackB = registry.track(2, () => undefined);
    expect(host.listenerCount('exit')).toBe(1);
    expect(host.listenerCount('SIGTERM')).toBe(1);
    expect(registry.pids()).toEqual([1, 2]);
    untrackA();
    untrackA(); // twice is harmless
    expect(host.listenerCount('exit')).toBe(1);
    untrackB();
    expect(host.eventNames()).toEqual([]);
  });

  it('kills every child at exit, one failure not stopping the rest', () => {
    const host = new FakeProcess();
    const registry = new ChildRegistry(host);
    const killed: number[] = [];
    registry.track(1, () => {
      throw new Error('ESRCH');
    });
    registry.track(2, () => killed.push(2));
    host.emit('exit');
    expect(killed).toEqual([2]);
  });

  it('kills the children on a signal and re-raises it when no one else listens', () => {
    const host = new FakeProcess();
    const registry = new ChildRegistry(host);
    const killed: number[] = [];
    registry.track(7, () => killed.push(7));
    host.emit('SIGTERM', 'SIGTERM');
    expect(killed).toEqual([7]);
    expect(host.kills).toEqual([[4242, 'SIGTERM']]);
    expect(host.listenerCount('SIGTERM')).toBe(0);
  });

  it('leaves ending to the application when it listens to the signal too', () => {
    const host = new FakeProcess();
    const registry = new ChildRegistry(host);
    const killed: number[] = [];
    host.on('SIGINT', () => undefined);
    registry.track(8, () => killed.push(8));
    host.emit('SIGINT', 'SIGINT');
    expect(killed).toEqual([8]);
    expect(host.kills).toEqual([]);
  });
});

describe('killGroup', () => {
  it('treats a group that is already gone as done, and reports other failures', () => {
    expect(() => killGroup(2 ** 22 + 12345)).not.toThrow();
    expect(() => killGroup(Number.NaN)).toThrow();
  });
});
