/**
 * Every limit at its edge, on both sides: the timeout, each output stream's cap, the memory limit, the
 * stop grace, and a secret cut in half by the cap.
 */
import { SecretRegistry } from '@helios/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STREAM_CHARS, MAX_VALUE_CHARS } from '../src/child/protocol.js';
import { openSandbox, type OpenSandbox } from './sandbox-kit.js';

const secrets = new SecretRegistry();
secrets.register('TOKEN', 'tok-0123456789abcdef');
let box: OpenSandbox;
beforeAll(async () => {
  box = await openSandbox(
    { memoryLimitBytes: 32 * 1024 * 1024, defaultTimeoutMs: 2_000, maxTimeoutMs: 5_000, stopGraceMs: 2_000 },
    secrets,
  );
});
afterAll(() => box.close());

const busy = (ms: number) => `const until = Date.now() + ${ms}; while (Date.now() < until) {} "done"`;

describe('the timeout', () => {
  it('lets a snippet finish inside it and stops one that runs past it, keeping the sandbox', async () => {
    expect(await box.run(busy(100), { timeoutMs: 600 })).toMatchObject({
      exitCode: 0,
      timedOut: false,
      value: 'done',
    });
    const over = await box.run(busy(1_000), { timeoutMs: 300 });
    expect(over).toMatchObject({
      exitCode: 1,
      timedOut: true,
      stderr: 'TimeoutError: the snippet was stopped at its 300 ms timeout\n',
    });
    expect(over.durationMs).toBeGreaterThanOrEqual(300);
    expect(over.durationMs).toBeLessThan(1_000);
  });

  it('uses the default when the request names none, and caps a request at the maximum', async () => {
    expect(await box.run('while (true) {}')).toMatchObject({
      timedOut: true,
      stderr: expect.stringContaining('its 2000 ms timeout') as unknown,
    });
    expect(await box.run('while (true) {}', { timeoutMs: 1_000_000 })).toMatchObject({
      timedOut: true,
      stderr: expect.stringContaining('its 5000 ms timeout') as unknown,
    });
  }, 20_000);
});

describe('each output stream', () => {
  it(`keeps exactly ${MAX_STREAM_CHARS} chars unmarked and marks one more`, async () => {
    const exact = await box.run(
      `print("a".repeat(${MAX_STREAM_CHARS})); console.error("b".repeat(${MAX_STREAM_CHARS - 1}))`,
    );
    expect(exact.stdout).toHaveLength(MAX_STREAM_CHARS);
    expect(exact.stderr).toHaveLength(MAX_STREAM_CHARS);
    const over = await box.run(`print("a".repeat(${MAX_STREAM_CHARS + 1}))`);
    expect(over.stdout).toBe(`${'a'.repeat(MAX_STREAM_CHARS)}\n[output truncated: 1 more chars discarded]`);
  });

  it('drops a secret the cap cut in half, and redacts whole ones', async () => {
    const result = await box.run(
      `print("x".repeat(${MAX_STREAM_CHARS - 30}) + " tok-0123456789abcdef " + "tok-0123456789abcdef")`,
    );
    // 8 chars of room were left for the second token: they are dropped and counted with the 12 cut off.
    expect(result.stdout.slice(-64)).toBe(
      'xxxxxx <redacted:TOKEN> \n[output truncated: 20 more chars discarded]'.slice(-64),
    );
    expect(result.stdout).not.toContain('tok-0123');
    expect(result.secretRedactionCounts.get('TOKEN')).toBe(1);
  });

  it(`shows a completion value up to ${MAX_VALUE_CHARS} chars`, async () => {
    expect((await box.run(`"v".repeat(${MAX_VALUE_CHARS})`)).value).toHaveLength(MAX_VALUE_CHARS);
    const cut = (await box.run(`"v".repeat(${MAX_VALUE_CHARS + 5})`)).value ?? '';
    expect(cut.slice(MAX_VALUE_CHARS - 1)).toBe('v… [value cut: 5 more chars]');
  });
});

describe('the memory limit', () => {
  it('allows what fits and refuses what does not, the sandbox kept', async () => {
    expect(await box.run('let fits = new Uint8Array(24 * 1024 * 1024); fits.length')).toMatchObject({
      exitCode: 0,
      value: String(24 * 1024 * 1024),
    });
    expect(await box.run('fits = null; let tooBig = new Uint8Array(33 * 1024 * 1024)')).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining('out of memory') as unknown,
    });
    expect((await box.run('typeof fits')).value).toBe('object');
  });
});
