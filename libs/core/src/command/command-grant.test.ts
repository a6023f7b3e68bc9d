import { chmodSync, mkdtempSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../common/helios-error.js';
import { SecretRegistry } from '../secrets/secret-registry.js';
import { type ArgValidator } from './argv-check.js';
import { CommandGrant, DEFAULT_GRANT_MAX_OUTPUT_BYTES, MIN_GRANT_MAX_OUTPUT_BYTES } from './command-grant.js';
import { callContext } from './grant-test-kit.js';

let scratch: string;
beforeEach(() => {
  scratch = mkdtempSync(join(tmpdir(), 'grant-build-'));
});
afterEach(() => rmSync(scratch, { recursive: true, force: true }));

function thrown(action: () => unknown): Error {
  try {
    action();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a throw');
}

describe('CommandGrant.build', () => {
  it('refuses to build without the sessions’ registry', () => {
    const error = thrown(() => CommandGrant.builder('echo').build());
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/needs withSecretRegistry/);
  });

  it.each([
    ['a name not on PATH', 'no-such-binary-helios'],
    ['a relative path', 'bin/echo'],
    ['an absolute path to nothing', '/nonexistent/helios/echo'],
    ['a directory', '/usr/bin'],
    ['a blank name', '  '],
  ])('refuses %s', (_label, spec) => {
    const error = thrown(() => CommandGrant.builder(spec).withSecretRegistry(new SecretRegistry()).build());
    expect(error).toBeInstanceOf(InvalidArgumentError);
  });

  it('refuses a regular file that is not executable, and takes it once it is', () => {
    const file = join(scratch, 'script');
    writeFileSync(file, '#!/bin/sh\necho hi\n', { mode: 0o644 });
    const builder = CommandGrant.builder(file).withSecretRegistry(new SecretRegistry());
    expect(thrown(() => builder.build()).message).toMatch(/not an executable regular file/);
    chmodSync(file, 0o755);
    expect(builder.build().name).toBe('script');
  });

  it('pins the real path at build: re-pointing the symlink later changes nothing', async () => {
    const link = join(scratch, 'prog');
    symlinkSync('/bin/echo', link);
    const registry = new SecretRegistry();
    const tool = CommandGrant.builder(link).withSecretRegistry(registry).build();
    unlinkSync(link);
    symlinkSync('/bin/false', link);
    const result = await tool.execute({ args: ['still echo'] }, callContext(registry));
    expect(result).toMatchObject({ type: 'Success', output: '[prog exit 0]\nstill echo\n' });
  });

  it('looks a bare name up on PATH once, at build', async () => {
    const registry = new SecretRegistry();
    const saved = process.env['PATH'];
    process.env['PATH'] = `relative/dir::${scratch}:/usr/bin:/bin`;
    let tool;
    try {
      tool = CommandGrant.builder('echo').withSecretRegistry(registry).build();
    } finally {
      process.env['PATH'] = saved;
    }
    writeFileSync(join(scratch, 'echo'), '#!/bin/sh\necho impostor\n', { mode: 0o755 });
    const result = await tool.execute({ args: ['real'] }, callContext(registry));
    expect(result.output).toBe('[echo exit 0]\nreal\n');
  });

  it('derives the name and description from the binary, and takes others', () => {
    const registry = new SecretRegistry();
    const plain = CommandGrant.builder('/usr/bin/env').withSecretRegistry(registry).build();
    expect(plain.name).toBe('env');
    expect(plain.description).toMatch(/'env'.*without a shell.*`args`/s);
    expect(plain.inputSchema).toEqual({
      type: 'object',
      properties: { args: expect.objectContaining({ type: 'array', items: { type: 'string' } }) },
      required: ['args'],
    });
    expect(plain.idempotent).toBe(false);
    const dotted = join(scratch, 'tool.v2');
    writeFileSync(dotted, '#!/bin/sh\n', { mode: 0o755 });
    expect(CommandGrant.builder(dotted).withSecretRegistry(registry).build().name).toBe('tool_v2');
    const named = CommandGrant.builder('env')
      .withSecretRegistry(registry)
      .withName('show_env')
      .withDescription('Shows the environment.')
      .build();
    expect([named.name, named.description]).toEqual(['show_env', 'Shows the environment.']);
  });
});

describe('CommandGrant options', () => {
  const builder = () => CommandGrant.builder('echo');

  it('checks limits on both sides of each edge', () => {
    expect(() => builder().withTimeout(0)).toThrow(InvalidArgumentError);
    expect(() => builder().withTimeout(1)).not.toThrow();
    expect(() => builder().withTimeout(1.5)).toThrow(InvalidArgumentError);
    expect(() => builder().withMaxOutputBytes(MIN_GRANT_MAX_OUTPUT_BYTES - 1)).toThrow(/at least 1024/);
    expect(() => builder().withMaxOutputBytes(MIN_GRANT_MAX_OUTPUT_BYTES)).not.toThrow();
    expect(() => builder().withMaxOutputBytes(DEFAULT_GRANT_MAX_OUTPUT_BYTES + 0.5)).toThrow(
      InvalidArgumentError,
    );
    expect(() => builder().withMaxConcurrent(0)).toThrow(InvalidArgumentError);
    expect(() => builder().withMaxConcurrent(1)).not.toThrow();
  });

  it('refuses values of the wrong kind', () => {
    expect(() => builder().withSecretRegistry({} as SecretRegistry)).toThrow(/needs a SecretRegistry/);
    expect(() => builder().withStderrToModel('yes' as unknown as boolean)).toThrow(/needs a boolean/);
    expect(() => builder().withArgValidator('no' as unknown as ArgValidator)).toThrow(/needs a function/);
    expect(() => builder().withName(' ')).toThrow(InvalidArgumentError);
    expect(() => builder().withDescription('')).toThrow(InvalidArgumentError);
  });

  it.each(['1ABC', 'A-B', 'A B', '', 'PATH', 'HELIOS_GRANT_CALL'])('refuses the variable name %j', (name) => {
    expect(() => builder().withEnv(name, 'a-long-enough-value')).toThrow(InvalidArgumentError);
  });

  it('refuses a variable value that is not a string or holds NUL, without showing it', () => {
    expect(() => builder().withPlainEnv('A', undefined as unknown as string)).toThrow(
      /must be a string, got undefined/,
    );
    expect(() => builder().withPlainEnv('A', null as unknown as string)).toThrow(/got null/);
    const error = thrown(() => builder().withPlainEnv('A', 'top\0secret'));
    expect(error.message).toMatch(/NUL/);
    expect(error.message).not.toContain('secret');
  });

  it.each(['', 'relative/bin', '/usr/bin::/bin', '/bin\0'])('refuses the child PATH %j', (path) => {
    expect(() => builder().withPath(path)).toThrow(InvalidArgumentError);
  });
});

describe('CommandGrant secret variables', () => {
  it('registers each withEnv value at build, not before', () => {
    const registry = new SecretRegistry();
    const builder = CommandGrant.builder('env')
      .withSecretRegistry(registry)
      .withEnv('GH_TOKEN', 'ghp_1234567890');
    expect(registry.size).toBe(0);
    builder.build();
    expect(registry.names()).toEqual(['GH_TOKEN']);
    expect(registry.redact('x ghp_1234567890 y').text).toBe('x <redacted:GH_TOKEN> y');
  });

  it('refuses a value too short to redact and registers none of the grant’s values', () => {
    const registry = new SecretRegistry();
    const error = thrown(() =>
      CommandGrant.builder('env')
        .withSecretRegistry(registry)
        .withEnv('GOOD', 'long-enough-value')
        .withEnv('SHORT', 'abc1234')
        .build(),
    );
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error.message).toMatch(/withEnv\('SHORT'\).*7 characters; at least 8.*withPlainEnv/);
    expect(error.message).not.toContain('abc1234');
    expect(registry.size).toBe(0);
  });

  it('gives a short setting through withPlainEnv without registering it', async () => {
    const registry = new SecretRegistry();
    const tool = CommandGrant.builder('env')
      .withSecretRegistry(registry)
      .withPlainEnv('NO_COLOR', '1')
      .build();
    expect(registry.size).toBe(0);
    expect((await tool.execute({ args: [] }, callContext(registry))).output).toContain('\nNO_COLOR=1\n');
  });

  it('lets a later setting of a name replace an earlier one, secret or plain', async () => {
    const registry = new SecretRegistry();
    const tool = CommandGrant.builder('env')
      .withSecretRegistry(registry)
      .withEnv('MODE', 'secret-mode-value')
      .withPlainEnv('MODE', 'plain')
      .build();
    expect(registry.size).toBe(0);
    expect((await tool.execute({ args: [] }, callContext(registry))).output).toContain('\nMODE=plain\n');
  });

  it('never replaces another secret registered under the same name', () => {
    const registry = new SecretRegistry();
    registry.register('GH_TOKEN', 'first-account-token');
    const grant = () =>
      CommandGrant.builder('env').withSecretRegistry(registry).withEnv('GH_TOKEN', 'second-account-token');
    grant().build();
    grant().build(); // the same value again: nothing new
    CommandGrant.builder('env')
      .withSecretRegistry(registry)
      .withEnv('GH_TOKEN', 'first-account-token')
      .build();
    expect(registry.names()).toEqual(['GH_TOKEN', 'GH_TOKEN_2']);
    expect(registry.redact('first-account-token second-account-token').text).toBe(
      '<redacted:GH_TOKEN> <redacted:GH_TOKEN_2>',
    );
  });
});
