/**
 * Sandboxes come and go with their sessions: started at open (or refused), killed at close, replaced
 * after they end, capped per provider, isolated from each other, and never outliving the host process.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { SecretRegistry, SessionContext } from '@helios/core';
import { afterEach, describe, expect, it } from 'vitest';
import { JavaScriptExecutionProvider } from '../src/javascript/javascript-execution-provider.js';
import { liveChildren } from '../src/process/live-children.js';

const providers: JavaScriptExecutionProvider[] = [];
function provider(
  options: ConstructorParameters<typeof JavaScriptExecutionProvider>[0] = {},
): JavaScriptExecutionProvider {
  const created = new JavaScriptExecutionProvider({ warmUpMs: 0, ...options });
  providers.push(created);
  return created;
}
afterEach(async () => {
  await Promise.all(providers.splice(0).map((p) => p.close()));
});

let sessions = 0;
const session = (secrets = new SecretRegistry()) =>
  SessionContext.create(`life-${++sessions}`, new AbortController().signal, secrets);
const run = (
  p: JavaScriptExecutionProvider,
  s: SessionContext,
  script: string,
  signal = new AbortController().signal,
) => p.execute(s, { runtime: 'JAVASCRIPT', script }, signal);
/** A process that exists and has not exited (a zombie waiting for its parent counts as gone). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return !/^\d+ \(.*\) [ZX] /s.test(stat);
  } catch {
    return false;
  }
};

describe('per session', () => {
  it('starts a sandbox at session start and kills it at session end', async () => {
    const p = provider();
    const s = session();
    const before = new Set(liveChildren.pids());
    expect(await p.onSessionStart(s)).toEqual({ type: 'Accept' });
    const [pid] = liveChildren.pids().filter((x) => !before.has(x));
    expect(pid).toBeDefined();
    expect(p.sandboxCount).toBe(1);
    await p.onSessionEnd(s);
    expect(alive(pid as number)).toBe(false);
    expect(p.sandboxCount).toBe(0);
    expect(await run(p, s, '1')).toMatchObject({
      exitCode: -1,
      stderr: expect.stringContaining('not started or has ended') as unknown,
    });
    await p.onSessionEnd(s); // a second end is harmless
  });

  it('refuses a session it already serves, one over the maximum, and any after close', async () => {
    const p = provider({ maxConcurrentSandboxes: 2 });
    const [a, b, c] = [session(), session(), session()];
    expect((await Promise.all([p.onSessionStart(a), p.onSessionStart(b)])).map((o) => o.type)).toEqual([
      'Accept',
      'Accept',
    ]);
    expect(await p.onSessionStart(a)).toEqual({
      type: 'Refuse',
      reason: 'the session already has a sandbox',
    });
    expect(await p.onSessionStart(c)).toEqual({ type: 'Refuse', reason: 'all 2 sandboxes are in use' });
    await p.onSessionEnd(a);
    expect((await p.onSessionStart(c)).type).toBe('Accept');
    await p.close();
    expect(await p.onSessionStart(session())).toEqual({ type: 'Refuse', reason: 'the provider is closed' });
    expect(p.sandboxCount).toBe(0);
  });

  it('refuses a session whose sandbox cannot start, saying why', async () => {
    const p = provider({ startupTimeoutMs: 1 });
    const outcome = await p.onSessionStart(session());
    expect(outcome).toMatchObject({
      type: 'Refuse',
      reason: 'the sandbox could not start: the sandbox was not ready within 1 ms',
    });
    expect(p.sandboxCount).toBe(0);
  });

  it('a session ended while its sandbox starts does not keep the sandbox', async () => {
    const p = provider();
    const s = session();
    const before = new Set(liveChildren.pids());
    const starting = p.onSessionStart(s);
    await p.onSessionEnd(s);
    expect((await starting).type).toBe('Accept');
    expect(p.sandboxCount).toBe(0);
    expect(liveChildren.pids().filter((pid) => !before.has(pid))).toEqual([]);
  });
});

describe('a spare sandbox', () => {
  it('is booted ahead and taken by the next session, which then opens at once', async () => {
    const before = new Set(liveChildren.pids());
    const p = provider({ spareSandbox: true });
    await expect.poll(() => liveChildren.pids().filter((pid) => !before.has(pid)).length).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // booted by now
    const s = session();
    const started = Date.now();
    expect(await p.onSessionStart(s)).toEqual({ type: 'Accept' });
    expect(Date.now() - started).toBeLessThan(500);
    expect((await run(p, s, '6 * 7')).value).toBe('42');
    await expect.poll(() => liveChildren.pids().filter((pid) => !before.has(pid)).length).toBe(2); // the next spare
    await p.close();
    await expect.poll(() => liveChildren.pids().filter((pid) => !before.has(pid)).length).toBe(0);
  });

  it('that died while waiting is not handed out: the session starts its own', async () => {
    const before = new Set(liveChildren.pids());
    const p = provider({ spareSandbox: true });
    await expect.poll(() => liveChildren.pids().filter((pid) => !before.has(pid)).length).toBe(1);
    const [spare] = liveChildren.pids().filter((pid) => !before.has(pid));
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    process.kill(-(spare as number), 'SIGKILL');
    await expect.poll(() => liveChildren.pids().includes(spare as number)).toBe(false); // its exit was seen
    const s = session();
    expect(await p.onSessionStart(s)).toEqual({ type: 'Accept' });
    expect(await run(p, s, '1 + 1')).toMatchObject({ value: '2' });
  });

  it('that failed to boot is not handed out: the session starts its own', async () => {
    const p = provider({ spareSandbox: true, startupTimeoutMs: 1 });
    expect(await p.onSessionStart(session())).toMatchObject({ type: 'Refuse' });
  });
});

describe('a sandbox that ended', () => {
  it('is replaced at the next execute, which says its variables are gone', async () => {
    const p = provider();
    const s = session();
    await p.onSessionStart(s);
    await run(p, s, 'let kept = 1');
    const bomb = await run(
      p,
      s,
      '(function fork() { Promise.resolve().then(fork); Promise.resolve().then(fork) })(); 1',
    );
    expect(bomb).toMatchObject({
      exitCode: 3,
      stderr: expect.stringContaining('[sandbox ended: its promise jobs kept queueing more') as unknown,
    });
    const next = await run(p, s, 'typeof kept');
    expect(next).toMatchObject({ exitCode: 0, value: 'undefined' });
    expect(next.stderr).toBe(
      '[a new sandbox was started: the previous one ended (its promise jobs kept queueing more after the snippet was stopped); its variables are gone]\n',
    );
  }, 20_000);

  it('is reported gone instead when restarts are off', async () => {
    const p = provider({ restartAfterEnd: false });
    const s = session();
    await p.onSessionStart(s);
    const controller = new AbortController();
    const pending = run(p, s, 'while (true) {}', controller.signal);
    setTimeout(() => controller.abort(), 100);
    expect(await pending).toMatchObject({ exitCode: 3 });
    expect(await run(p, s, '1')).toMatchObject({
      exitCode: -1,
      stderr: "the session's sandbox has ended (the execute was cancelled)",
    });
  });
});

describe('sessions side by side', () => {
  it('are isolated from each other and run at the same time', async () => {
    const p = provider();
    const [a, b] = [session(), session()];
    await Promise.all([p.onSessionStart(a), p.onSessionStart(b)]);
    await run(p, a, 'var secret = "only in a"; globalThis.shared = 1; Object.prototype.polluted = true');
    expect((await run(p, b, '[typeof secret, typeof shared, ({}).polluted]')).value).toBe(
      '["undefined", "undefined", undefined]',
    );
    const busy = 'const until = Date.now() + 400; while (Date.now() < until) {} "done"';
    const started = Date.now();
    const both = await Promise.all([run(p, a, busy), run(p, b, busy)]);
    expect(both.map((r) => r.value)).toEqual(['done', 'done']);
    expect(Date.now() - started).toBeLessThan(2_000);
  });
});

describe('the host process ending', () => {
  const script = (ending: string) => `
    import { SessionContext } from '@helios/core';
    import { JavaScriptExecutionProvider } from ${JSON.stringify(new URL('../src/index.ts', import.meta.url).pathname)};
    import { liveChildren } from ${JSON.stringify(new URL('../src/process/live-children.ts', import.meta.url).pathname)};
    const provider = new JavaScriptExecutionProvider({ warmUpMs: 0 });
    const outcome = await provider.onSessionStart(SessionContext.create('exit-test', new AbortController().signal));
    console.log(JSON.stringify({ outcome: outcome.type, pids: liveChildren.pids() }));
    ${ending}
  `;
  const host = (ending: string) =>
    new Promise<{ pids: number[]; code: number | null; signal: string | null }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '--input-type=module', '-e', script(ending)],
        {
          cwd: new URL('..', import.meta.url).pathname,
          stdio: ['ignore', 'pipe', 'inherit'],
        },
      );
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('\n') && ending === 'await new Promise(() => {});') child.kill('SIGTERM');
      });
      child.on('error', reject);
      child.on('exit', (code, signal) =>
        resolve({ pids: (JSON.parse(out.split('\n')[0] ?? '{}') as { pids: number[] }).pids, code, signal }),
      );
    });

  it('kills every sandbox at exit', async () => {
    const ended = await host('process.exit(0);');
    expect(ended.pids).toHaveLength(1);
    expect(ended.code).toBe(0);
    await expect.poll(() => ended.pids.some(alive)).toBe(false);
  }, 30_000);

  it('kills every sandbox on SIGTERM, then ends by it as it would have', async () => {
    const ended = await host('await new Promise(() => {});');
    expect(ended.signal).toBe('SIGTERM');
    await expect.poll(() => ended.pids.some(alive)).toBe(false);
  }, 30_000);
});
