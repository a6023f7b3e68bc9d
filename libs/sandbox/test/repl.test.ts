/**
 * The sandbox as a REPL: state that persists between a session's executes, declarations that can be
 * made again, TypeScript, completion values, errors that leave the state alone, and executes of one
 * session running in order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openSandbox, type OpenSandbox } from './sandbox-kit.js';

let box: OpenSandbox;
beforeAll(async () => {
  box = await openSandbox();
});
afterAll(() => box.close());

describe('state across executes', () => {
  it('keeps top-level declarations of every kind, and lets them be declared again', async () => {
    expect(
      await box.run(
        'let a = 1; const b = 2; var c = 3; function f() { return a + b + c } class K { v() { return 4 } }',
      ),
    ).toMatchObject({ exitCode: 0 });
    expect((await box.run('f() + new K().v()')).value).toBe('10');
    expect(await box.run('let a = 10; const b = 20; class K { v() { return 40 } }; a + b')).toMatchObject({
      exitCode: 0,
      value: '30',
    });
    expect((await box.run('f() + new K().v()')).value).toBe('73');
  });

  it('keeps what an execute defined before it failed', async () => {
    const failed = await box.run('let kept = "yes";\nnull.boom');
    expect(failed.exitCode).toBe(1);
    expect(failed.stderr).toMatch(/^TypeError: cannot read property 'boom' of null/);
    expect(failed.stderr).toContain('<snippet>:2');
    expect((await box.run('kept')).value).toBe('yes');
  });

  it('awaits at top level and keeps what it awaited', async () => {
    expect((await box.run('const got = await Promise.resolve(41); got + 1')).value).toBe('42');
    expect((await box.run('got')).value).toBe('41');
  });

  it('reports an unhandled rejection on stderr without failing the execute', async () => {
    const result = await box.run('Promise.reject(new Error("nobody caught me")); 1');
    expect(result).toMatchObject({
      exitCode: 0,
      value: '1',
      stderr: 'Uncaught (in promise) Error: nobody caught me\n',
    });
  });

  it('refuses a syntax error without running anything', async () => {
    const result = await box.run('let = ;');
    expect(result).toMatchObject({
      exitCode: 1,
      stdout: '',
      stderr: 'SyntaxError: Unexpected token (1:6)\n',
    });
  });
});

describe('TypeScript', () => {
  it('runs with types stripped, sharing state with JavaScript', async () => {
    const ts =
      'interface Point { x: number; y: number }\nconst origin: Point = { x: 0, y: 0 };\nfunction norm(p: Point): number { return Math.hypot(p.x, p.y) }\nenum Color { Red, Green }\nnorm({ x: 3, y: 4 }) + Color.Green';
    expect(await box.run(ts, { runtime: 'TYPESCRIPT' })).toMatchObject({ exitCode: 0, value: '6' });
    expect((await box.run('norm({ x: 6, y: 8 }) + origin.x')).value).toBe('10');
    const generic = await box.run(
      'function first<T>(xs: T[]): T | undefined { return xs[0] }\nclass Box<T> { constructor(private readonly v: T) {} get(): T { return this.v } }\nfirst([new Box("b").get()])',
      { runtime: 'TYPESCRIPT' },
    );
    expect(generic.value).toBe('b');
  });

  it('does not check types', async () => {
    expect(
      await box.run('const n: number = "not a number" as any; typeof n', { runtime: 'TYPESCRIPT' }),
    ).toMatchObject({ exitCode: 0, value: 'string' });
  });

  it('reports a TypeScript syntax error', async () => {
    expect(await box.run('const x: = 1', { runtime: 'TYPESCRIPT' })).toMatchObject({
      exitCode: 1,
      stderr: expect.stringMatching(/^SyntaxError: .*\(TypeScript\)/) as unknown,
    });
  });
});

describe('one execute at a time', () => {
  it('runs a session’s concurrent executes in the order they came', async () => {
    const results = await Promise.all([
      box.run(
        'var order = []; const t0 = Date.now(); while (Date.now() - t0 < 100) {} order.push("first"); order.length',
      ),
      box.run('order.push("second"); order'),
    ]);
    expect(results.map((r) => r.value)).toEqual(['1', '["first", "second"]']);
  });
});

describe('requests the provider refuses', () => {
  it('a runtime it does not run, a bad timeout, an unknown session', async () => {
    expect(await box.run('echo hi', { runtime: 'BASH' })).toMatchObject({
      exitCode: -1,
      stderr: 'JavaScriptExecutionProvider runs JAVASCRIPT and TYPESCRIPT, not BASH',
    });
    expect(await box.run('1', { timeoutMs: -1 })).toMatchObject({
      exitCode: -1,
      stderr: 'timeoutMs must be a positive integer, got -1',
    });
    const stranger = { ...box.session, sessionId: 'never-started' };
    const result = await box.provider.execute(
      stranger,
      { runtime: 'JAVASCRIPT', script: '1' },
      new AbortController().signal,
    );
    expect(result).toMatchObject({
      exitCode: -1,
      stderr: 'no sandbox for session never-started: it was not started or has ended',
    });
  });
});
