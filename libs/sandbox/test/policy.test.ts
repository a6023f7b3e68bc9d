/** The static check end to end: each policy refuses what it names, with the construct in the error, and runs nothing. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SandboxPolicy } from '../src/policy/sandbox-policy.js';
import { openSandbox, type OpenSandbox } from './sandbox-kit.js';

describe('the standard policy (the default)', () => {
  let box: OpenSandbox;
  beforeAll(async () => {
    box = await openSandbox();
  });
  afterAll(() => box.close());

  it('refuses the Node and browser APIs the sandbox lacks, before anything runs', async () => {
    const result = await box.run('var ran = true;\nconst fs = require("fs")');
    expect(result).toMatchObject({
      exitCode: 1,
      stderr:
        'SandboxPolicyViolation: require is denied by the sandbox policy (rule deniedGlobals:require) at line 2, column 12\n',
    });
    expect((await box.run('typeof ran')).value).toBe('undefined');
    for (const [snippet, construct] of [
      ['process.env', 'process'],
      ['setTimeout(() => 1, 10)', 'setTimeout'],
      ['fetch("http://example.com")', 'fetch'],
      ['import("fs")', 'import()'],
    ]) {
      expect((await box.run(snippet as string)).stderr).toContain(
        `SandboxPolicyViolation: ${construct as string} is denied`,
      );
    }
  });

  it('allows eval and Function, which stay inside the engine', async () => {
    expect((await box.run('eval("1 + 1") + Function("return 2")()')).value).toBe('4');
  });
});

describe('the strict policy', () => {
  let box: OpenSandbox;
  beforeAll(async () => {
    box = await openSandbox({ policy: SandboxPolicy.strict() });
  });
  afterAll(() => box.close());

  it('also refuses eval, the Function constructor and global writes, in TypeScript too', async () => {
    expect((await box.run('eval("1")')).stderr).toContain('eval is denied');
    expect((await box.run('(() => 0).constructor("return 1")()')).stderr).toContain(
      'Function constructor is denied',
    );
    expect((await box.run('globalThis.answer = 42')).stderr).toContain('globalThis mutation is denied');
    expect(
      (await box.run('const f: Function = new Function("x")', { runtime: 'TYPESCRIPT' })).stderr,
    ).toContain('Function constructor is denied');
    expect((await box.run('let answer = 42; answer')).value).toBe('42');
  });
});

describe('the permissive policy', () => {
  let box: OpenSandbox;
  beforeAll(async () => {
    box = await openSandbox({ policy: SandboxPolicy.permissive() });
  });
  afterAll(() => box.close());

  it('refuses nothing; the engine answers for itself', async () => {
    expect(await box.run('require("fs")')).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/^ReferenceError: require is not defined/) as unknown,
    });
  });
});
