import { Redactor, SecretRegistry } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { executionResult } from './execution-result.js';
import { StreamCapture } from './stream-capture.js';

describe('StreamCapture', () => {
  it('keeps exactly the cap unmarked, and marks one character more', () => {
    const exact = new StreamCapture(5);
    exact.append('abc');
    exact.append('de');
    expect(exact.truncated).toBe(false);
    expect(exact.finish(Redactor.EMPTY)).toBe('abcde');
    const over = new StreamCapture(5);
    over.append('abcdef');
    expect(over.finish(Redactor.EMPTY)).toBe('abcde\n[output truncated: 1 more chars discarded]');
  });

  it('counts what a sender discarded, and ends a newline-terminated cut without an extra line', () => {
    const capture = new StreamCapture(10);
    capture.append('line\n');
    capture.discardedElsewhere(7);
    expect(capture.finish(Redactor.EMPTY)).toBe('line\n[output truncated: 7 more chars discarded]');
  });

  it('drops a trailing start of a secret at the cut and counts it as discarded', () => {
    const registry = new SecretRegistry();
    registry.register('TOKEN', 'sk-live-123456');
    const capture = new StreamCapture(12);
    capture.append('key=sk-live-123456 and more');
    expect(capture.finish(registry.redactor())).toBe('key=\n[output truncated: 23 more chars discarded]');
  });
});

describe('executionResult', () => {
  it('redacts every stream and the value with one snapshot, counting markers per secret', () => {
    const registry = new SecretRegistry();
    registry.register('A', 'aaaa-secret');
    registry.register('B', 'bbbb-secret');
    const stdout = new StreamCapture(100);
    stdout.append('aaaa-secret aaaa-secret');
    const stderr = new StreamCapture(100);
    stderr.append('bbbb-secret');
    const result = executionResult(
      { exitCode: 1, timedOut: true, stdout, stderr, value: 'aaaa-secret', durationMs: 5, notes: ['[note]'] },
      registry,
    );
    expect(result).toMatchObject({
      exitCode: 1,
      timedOut: true,
      durationMs: 5,
      stdout: '<redacted:A> <redacted:A>',
      stderr: '[note]\n<redacted:B>',
      value: '<redacted:A>',
    });
    expect([...result.secretRedactionCounts]).toEqual([
      ['A', 3],
      ['B', 1],
    ]);
    const bare = executionResult(
      { exitCode: 0, timedOut: false, stdout, stderr: new StreamCapture(1), durationMs: 0 },
      new SecretRegistry(),
    );
    expect(bare).not.toHaveProperty('value');
    expect(bare.stderr).toBe('');
  });
});
