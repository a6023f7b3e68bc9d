/**
 * The host's side of the channel against a child that breaks the protocol — what a snippet could do
 * only after escaping the engine. Every violation ends the sandbox and answers the execute; nothing the
 * child writes to stdout is ever read as a frame.
 */
import { Redactor } from '@helios/core';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_FRAME_CHARS } from '../src/child/protocol.js';
import { type Sandbox, SandboxStartError } from '../src/javascript/sandbox.js';
import { rogue, startRogue } from './rogue-kit.js';

const started: Sandbox[] = [];
async function open(): Promise<Sandbox> {
  const sandbox = await startRogue();
  started.push(sandbox);
  return sandbox;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.end('test over')));
});

const text = (capture: { finish(r: Redactor): string }) => capture.finish(Redactor.EMPTY);

describe('a well-behaved exchange', () => {
  it('answers with the output and value the child sent', async () => {
    const sandbox = await open();
    const outcome = await rogue(sandbox, 'echo');
    expect(outcome).toMatchObject({ exitCode: 0, timedOut: false, value: 'ok' });
    expect(text(outcome.stdout)).toBe('fine');
    expect(sandbox.alive).toBe(true);
  });

  it('refuses a host call before the sandbox has a session (a spare)', async () => {
    const spare = await startRogue({ unassigned: true });
    started.push(spare);
    expect(await rogue(spare, 'call add {"a":1,"b":2}')).toMatchObject({
      exitCode: 3,
      ended: 'protocol violation: a host call before the sandbox had a session',
    });
  });

  it('runs registered host calls and refuses others, without ending the sandbox', async () => {
    const sandbox = await open();
    expect((await rogue(sandbox, 'call add {"a":2,"b":3}')).value).toBe(
      '{"jsonrpc":"2.0","id":"sub-1","result":5}',
    );
    const unknown = await rogue(sandbox, 'call readFile {"path":"/etc/passwd"}');
    expect(JSON.parse(unknown.value ?? '')).toMatchObject({
      error: { message: "no host function named 'readFile'" },
    });
    const polluting = await rogue(sandbox, 'call add {"a":1,"b":2,"__proto__":{"polluted":true}}');
    expect(JSON.parse(polluting.value ?? '')).toMatchObject({
      error: { message: "add: unknown parameter '__proto__'" },
    });
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(sandbox.alive).toBe(true);
  });
});

describe('forged frames', () => {
  it('a frame written to stdout is inert: never parsed, the real answer wins', async () => {
    const sandbox = await open();
    const outcome = await rogue(sandbox, 'stdout-forgery');
    expect(outcome.value).toBe('real');
    expect(sandbox.alive).toBe(true);
  });

  const violations: [string, string][] = [
    ['other-exec-output', 'protocol violation: output for an execute not in flight'],
    ['call-twice', 'protocol violation: a host call out of turn'],
    ['not-json', 'a frame was not JSON'],
    ['bad-answer', 'protocol violation: a malformed execute answer'],
    ['reboot', 'protocol violation: a boot answer out of turn'],
  ];
  for (const [mode, reason] of violations) {
    it(`${mode}: ends the sandbox and answers the execute with exit code 3`, async () => {
      const sandbox = await open();
      const outcome = await rogue(sandbox, mode);
      expect(outcome).toMatchObject({ exitCode: 3, timedOut: false, ended: reason });
      expect(text(outcome.stderr)).toContain(`[sandbox ended: ${reason}; its state is lost]`);
      expect(sandbox.alive).toBe(false);
      expect(await rogue(sandbox, 'echo')).toMatchObject({ exitCode: 3, ended: reason });
    });
  }

  it('a second answer to an execute already answered ends the sandbox', async () => {
    const sandbox = await open();
    expect(await rogue(sandbox, 'answer-twice')).toMatchObject({ exitCode: 0 });
    await expect.poll(() => sandbox.endReason).toBe('protocol violation: an execute answer out of turn');
  });
});

describe('the frame cap', () => {
  it(`accepts a frame of exactly ${MAX_FRAME_CHARS} chars and ends the sandbox at one more`, async () => {
    const sandbox = await open();
    const exact = await rogue(sandbox, `frame-of ${MAX_FRAME_CHARS}`, 10_000);
    expect(exact.exitCode).toBe(0);
    expect(text(exact.stdout)).toMatch(/\[output truncated: \d+ more chars discarded\]$/);
    const over = await rogue(sandbox, `frame-of ${MAX_FRAME_CHARS + 1}`, 10_000);
    expect(over).toMatchObject({ exitCode: 3, ended: 'a frame exceeded 8,000,000 chars' });
  });

  it('counts a frame while it arrives: no newline needed to end the sandbox', async () => {
    const sandbox = await open();
    expect(await rogue(sandbox, `unterminated ${MAX_FRAME_CHARS + 1}`, 10_000)).toMatchObject({
      exitCode: 3,
      ended: 'a frame exceeded 8,000,000 chars',
    });
  });
});

describe('a child that stops answering or dies', () => {
  it('is killed stopGrace after the timeout, and the execute answers then', async () => {
    const sandbox = await open();
    const started = Date.now();
    const outcome = await rogue(sandbox, 'hang', 200);
    const took = Date.now() - started;
    expect(outcome).toMatchObject({
      exitCode: 3,
      timedOut: true,
      ended: 'the snippet was still running 300 ms after its 200 ms timeout',
    });
    expect(took).toBeGreaterThanOrEqual(490);
    expect(took).toBeLessThan(2_000);
    await expect.poll(() => processAlive(sandbox.pid)).toBe(false);
  });

  it('a crash answers with exit code 3 and what the child printed', async () => {
    const sandbox = await open();
    const outcome = await rogue(sandbox, 'crash');
    expect(outcome).toMatchObject({ exitCode: 3, ended: 'the sandbox process exited (code 7)' });
    expect(text(outcome.stderr)).toContain('rogue: crashing on purpose');
  });

  it('a child that closes its channel and lives on is ended', async () => {
    const sandbox = await open();
    expect(await rogue(sandbox, 'close-channel', 10_000)).toMatchObject({
      exitCode: 3,
      ended: 'the sandbox closed its channel',
    });
    await expect.poll(() => processAlive(sandbox.pid)).toBe(false);
  });

  it('cancelling an execute ends the sandbox', async () => {
    const sandbox = await open();
    const controller = new AbortController();
    const pending = rogue(sandbox, 'hang', 60_000, controller.signal);
    controller.abort();
    expect(await pending).toMatchObject({ exitCode: 3, ended: 'the execute was cancelled' });
    expect(await rogue(sandbox, 'echo', 1000, AbortSignal.abort())).toMatchObject({ exitCode: 3 });
  });

  it('cancelling an execute that has run a while ends the sandbox at once too', async () => {
    const sandbox = await open();
    const controller = new AbortController();
    const pending = rogue(sandbox, 'hang', 60_000, controller.signal);
    setTimeout(() => controller.abort(), 50); // after the execute's signal got its listener
    const started = Date.now();
    expect(await pending).toMatchObject({ exitCode: 3, ended: 'the execute was cancelled' });
    expect(Date.now() - started).toBeLessThan(1_000);
  });

  it('refuses a second execute while one is in flight', async () => {
    const sandbox = await open();
    const pending = rogue(sandbox, 'hang', 100);
    expect(() => rogue(sandbox, 'echo')).toThrow(/one execute at a time/);
    await pending;
  });
});

describe('startup', () => {
  it('fails with what the child printed when it cannot boot', async () => {
    const error = await startRogue({ entry: '/nonexistent/child.mjs' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SandboxStartError);
    expect((error as Error).message).toMatch(
      /^the sandbox process exited \(code 1\); the child printed: .*Cannot find module/s,
    );
  });

  it('fails when the child is not ready in time', async () => {
    const error = await startRogue({ entry: '/nonexistent/child.mjs', startupTimeoutMs: 1 }).catch(
      (e: unknown) => e,
    );
    // Under load the dying child's stderr may arrive first and be appended to the reason.
    expect((error as Error).message).toMatch(/^the sandbox was not ready within 1 ms(;|$)/);
  });
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
