/**
 * A JAVASCRIPT or TYPESCRIPT execute's request inputs: args, environment and stdin are read-only
 * globals of that execute (the request's values only, never the host's environment); a working
 * directory is refused, since the sandbox has no file system.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ExecutionRequest } from '../src/execution/execution-types.js';
import { openSandbox, type OpenSandbox } from './sandbox-kit.js';

let box: OpenSandbox;
beforeAll(async () => {
  box = await openSandbox();
});
afterAll(() => box.close());

const run = (request: Partial<ExecutionRequest> & { script: string }) =>
  box.provider.execute(box.session, { runtime: 'JAVASCRIPT', ...request }, new AbortController().signal);

describe('request inputs in the sandbox', () => {
  it('are the globals args, env and stdin of that execute, read-only', async () => {
    process.env['HELIOS_INPUTS_HOST_SECRET'] = 'host-only-value';
    const result = await run({
      script: 'try { args.push("x") } catch (e) { println(e.name) } JSON.stringify([args, env, stdin])',
      args: ['a', 'b c'],
      environment: { MODE: 'fast' },
      stdin: 'line 1\nline 2\n',
    });
    expect(result).toMatchObject({
      exitCode: 0,
      stdout: 'TypeError\n',
      value: '[["a","b c"],{"MODE":"fast"},"line 1\\nline 2\\n"]',
    });
    delete process.env['HELIOS_INPUTS_HOST_SECRET'];
  });

  it('default to [], {} and "" when the request gave some but not all, in TypeScript too', async () => {
    const result = await run({
      runtime: 'TYPESCRIPT',
      script: 'const n: number = args.length; `${n}|${Object.keys(env).length}|${stdin.length}`',
      stdin: 'abc',
    });
    expect(result).toMatchObject({ exitCode: 0, value: '0|0|3' });
  });

  it('are gone at the next execute that carries none, while other state stays', async () => {
    await run({ script: 'var kept = args[0]', args: ['remembered'] });
    expect(await run({ script: '[typeof args, typeof env, typeof stdin, kept].join()' })).toMatchObject({
      value: 'undefined,undefined,undefined,remembered',
    });
  });

  it('cannot take a name an earlier snippet declared', async () => {
    await run({ script: 'var env = "my own"' });
    const result = await run({ script: 'env', environment: { A: 'b' } });
    expect(result).toMatchObject({
      exitCode: 1,
      stderr:
        "InputError: this execute's env cannot be exposed: an earlier snippet took the global name env\n",
    });
    expect(await run({ script: 'env' })).toMatchObject({ value: 'my own' });
  });

  it('refuses a working directory, and malformed inputs, before anything runs', async () => {
    expect(await run({ script: '1', workingDirectory: '/tmp' })).toMatchObject({
      exitCode: -1,
      stderr: expect.stringContaining('workingDirectory is not supported for JAVASCRIPT') as unknown,
    });
    expect(await run({ script: '1', args: ['nul\0'] })).toMatchObject({
      exitCode: -1,
      stderr: 'args[0] must not contain NUL',
    });
  });
});
