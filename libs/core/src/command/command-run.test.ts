import { describe, expect, it } from 'vitest';
import { DEFAULT_GRANT_PATH } from './grant-environment.js';
import { runCommand } from './command-run.js';
import { goneWithin, isAlive } from './grant-test-kit.js';

describe('runCommand without procfs (as on macOS)', () => {
  it('kills the call’s process group only: a setsid’ed descendant survives, as documented', async () => {
    const outcome = await runCommand({
      binaryPath: '/bin/sh',
      args: ['-c', 'sleep 300 & echo $!; setsid sleep 300 >/dev/null & sleep 0.2; echo $!'],
      path: DEFAULT_GRANT_PATH,
      variables: new Map(),
      timeoutMs: 5_000,
      maxOutputBytes: 1024,
      keepStderr: false,
      signal: new AbortController().signal,
      procRoot: '/nonexistent-proc',
    });
    const [member, escaped] = outcome.stdout.text().trim().split('\n').map(Number) as [number, number];
    expect(outcome.end).toEqual({ type: 'Exited', code: 0 });
    expect(await goneWithin(member, 2_000)).toBe(true);
    expect(isAlive(escaped)).toBe(true);
    process.kill(escaped, 'SIGKILL');
  });
});
