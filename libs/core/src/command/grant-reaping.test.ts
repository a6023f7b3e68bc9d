import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { CommandGrant } from './command-grant.js';
import { callContext, goneWithin, isAlive } from './grant-test-kit.js';

/**
 * Each script prints the pids of what it left behind: a setsid'ed child (own session and group,
 * marker still in its environment), a plain background child (the call's group), a setsid'ed child
 * that cleared its environment (found by parentage while the shell lives) and a double-forked
 * setsid'ed one (reparented to init at once; found by its marker).
 */
const LEAVE_FOUR = [
  'setsid sleep 300 & echo $!',
  'sleep 300 & echo $!',
  'env -i setsid sleep 300 & echo $!',
  '(setsid sleep 300 & echo $!)',
].join('; ');

let registry: SecretRegistry;
let scratch: string;
const strays: number[] = [];

beforeEach(() => {
  registry = new SecretRegistry();
  scratch = mkdtempSync(join(tmpdir(), 'grant-reap-'));
});
afterEach(() => {
  for (const pid of strays.splice(0)) if (isAlive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

const shell = (timeoutMs = 10_000) =>
  CommandGrant.builder('sh').withSecretRegistry(registry).withTimeout(timeoutMs).build();

function pidsIn(lines: readonly string[]): number[] {
  const pids = lines.filter((line) => /^\d+$/.test(line)).map(Number);
  strays.push(...pids);
  return pids;
}

describe('CommandGrant reaping', () => {
  it('kills every descendant at the timeout, setsid’ed grandchildren included', async () => {
    const result = await shell(400).execute(
      { args: ['-c', `${LEAVE_FOUR}; sleep 300`] },
      callContext(registry),
    );
    const [header, ...lines] = result.output.trimEnd().split('\n');
    expect(result.type).toBe('Failure');
    expect(header).toBe('[sh TIMEOUT after 400ms]');
    const pids = pidsIn(lines);
    expect(pids).toHaveLength(4);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('kills what the command left running when it exits normally', async () => {
    const result = await shell().execute(
      { args: ['-c', 'setsid sleep 300 & echo $!; sleep 300 & echo $!'] },
      callContext(registry),
    );
    const [header, ...lines] = result.output.trimEnd().split('\n');
    expect([result.type, header]).toEqual(['Success', '[sh exit 0]']);
    const pids = pidsIn(lines);
    expect(pids).toHaveLength(2);
    expect(pids.filter(isAlive)).toEqual([]);
  });

  it('kills every descendant when the call is cancelled, then removes its directory', async () => {
    const controller = new AbortController();
    const report = join(scratch, 'pids');
    const script = `{ ${LEAVE_FOUR}; echo $$; pwd; } > "$0.tmp"; mv "$0.tmp" "$0"; sleep 300`;
    const call = shell().execute({ args: ['-c', script, report] }, callContext(registry, controller.signal));
    while (!existsSync(report)) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new DOMException('stop', 'AbortError'));
    await expect(call).rejects.toThrow('stop');
    const lines = readFileSync(report, 'utf8').trimEnd().split('\n');
    const pids = pidsIn(lines);
    expect(pids).toHaveLength(5);
    for (const pid of pids) expect(await goneWithin(pid, 3_000)).toBe(true);
    const cwd = lines.at(-1) as string;
    const deadline = Date.now() + 3_000;
    while (existsSync(cwd) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(existsSync(cwd)).toBe(false);
  });

  it('starts nothing when the call is cancelled before its process starts', async () => {
    const controller = new AbortController();
    const target = join(scratch, 'made');
    const tool = CommandGrant.builder('touch').withSecretRegistry(registry).build();
    const call = tool.execute({ args: [target] }, callContext(registry, controller.signal));
    controller.abort(new DOMException('early', 'AbortError'));
    await expect(call).rejects.toThrow('early');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(existsSync(target)).toBe(false);
  });

  it('cannot find a descendant that clears its environment and leaves the session after its parent died (documented limit)', async () => {
    const script = 'env -i setsid sleep 30 & echo $!; sleep 0.2';
    const started = Date.now();
    const result = await shell().execute({ args: ['-c', script] }, callContext(registry));
    const [header, pidLine, warning] = result.output.trimEnd().split('\n');
    const [escaped] = pidsIn([pidLine as string]);
    expect(header).toBe('[sh exit 0]');
    expect(warning).toMatch(/escaped the call kept its output open/);
    expect(isAlive(escaped as number)).toBe(true);
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});
