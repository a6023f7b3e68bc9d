import { describe, expect, it } from 'vitest';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { CommandGrant } from './command-grant.js';
import { callContext } from './grant-test-kit.js';

const TOKEN = 'tok-secret-4242';
const CAP = 1024;

/** Runs `script` under sh with TOKEN in its environment and stdout and stderr capped at CAP bytes. */
async function capped(script: string): Promise<string> {
  const registry = new SecretRegistry();
  const tool = CommandGrant.builder('sh')
    .withSecretRegistry(registry)
    .withEnv('TOKEN', TOKEN)
    .withMaxOutputBytes(CAP)
    .withStderrToModel(true)
    .build();
  return (await tool.execute({ args: ['-c', script] }, callContext(registry))).output;
}

/** Shell that prints `count` copies of `char`. */
const repeat = (char: string, count: number) => `printf "%0${count}d" 0 | tr 0 ${char}`;

describe('CommandGrant output cap', () => {
  it('keeps a stream of exactly the cap whole', async () => {
    expect(await capped(repeat('x', CAP))).toBe(`[sh exit 0]\n${'x'.repeat(CAP)}\n`);
  });

  it('cuts a stream one byte over the cap and says so', async () => {
    expect(await capped(repeat('x', CAP + 1))).toBe(
      `[sh exit 0]\n${'x'.repeat(CAP)}\n[output cut at 1024 of 1025 bytes]\n`,
    );
  });

  it('drops the start of a secret the cap cut through', async () => {
    const output = await capped(`${repeat('x', CAP - 4)}; printf %s "$TOKEN"`);
    expect(output).toBe(`[sh exit 0]\n${'x'.repeat(CAP - 4)}\n[output cut at 1024 of 1035 bytes]\n`);
  });

  it('keeps, redacted, a secret that ends exactly at the cap', async () => {
    const output = await capped(`${repeat('x', CAP - TOKEN.length)}; printf "%s!" "$TOKEN"`);
    expect(output).toBe(
      `[sh exit 0]\n${'x'.repeat(CAP - TOKEN.length)}<redacted:TOKEN>\n[output cut at 1024 of 1025 bytes]\n`,
    );
  });

  it('never splits a UTF-8 character at the cap', async () => {
    const output = await capped(`${repeat('a', CAP - 1)}; printf '\\303\\251tail'`);
    expect(output).toBe(`[sh exit 0]\n${'a'.repeat(CAP - 1)}\n[output cut at 1024 of 1029 bytes]\n`);
    expect(output).not.toContain('\uFFFD');
  });

  it('keeps a character that fits before the cap whole', async () => {
    const output = await capped(`${repeat('a', CAP - 2)}; printf '\\303\\251tail'`);
    expect(output).toBe(`[sh exit 0]\n${'a'.repeat(CAP - 2)}é\n[output cut at 1024 of 1028 bytes]\n`);
  });

  it('shows invalid UTF-8 the program wrote as U+FFFD', async () => {
    expect(await capped("printf 'a\\377b'")).toBe('[sh exit 0]\na\uFFFDb\n');
  });

  it('drains a stream far past the cap so the program finishes', async () => {
    const output = await capped('head -c 1000000 /dev/zero | tr "\\0" z; echo done >&2');
    expect(output).toBe(
      `[sh exit 0]\n${'z'.repeat(CAP)}\n[output cut at 1024 of 1000000 bytes]\n[stderr]\ndone\n`,
    );
  });

  it('caps stderr on its own and trims a secret there too', async () => {
    const output = await capped(`echo out; (${repeat('e', CAP - 3)}; printf %s "$TOKEN") >&2`);
    expect(output).toBe(
      `[sh exit 0]\nout\n[stderr]\n${'e'.repeat(CAP - 3)}\n[output cut at 1024 of 1036 bytes]\n`,
    );
  });
});
