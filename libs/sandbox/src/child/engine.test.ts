import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { Engine, guestError, type RunResult } from './engine.js';

const wasm = readFileSync(createRequire(import.meta.url).resolve('quickjs-wasi/quickjs.wasm'));
const MIB = 1024 * 1024;

/** The outcome alone, for the tests that are not about rejections. */
async function outcomeOf(result: Promise<RunResult>) {
  const { rejections: _rejections, ...outcome } = await result;
  return outcome;
}

describe('Engine', () => {
  const written: [string, string][] = [];
  let engine: Engine;
  beforeAll(async () => {
    engine = await Engine.create({
      wasm,
      memoryLimitBytes: 64 * MIB,
      maxStackBytes: 512 * 1024,
      hostFunctions: [
        {
          name: 'add',
          parameters: [
            { name: 'a', type: 'number' },
            { name: 'b', type: 'number' },
          ],
        },
      ],
      write: (stream, text) => written.push([stream, text]),
      callHost: (name, argsJson) => {
        const args = JSON.parse(argsJson) as { a: number; b: number };
        if (args.a < 0) throw guestError(`${name}: a must not be negative`);
        if (args.a === 13) throw new Error('the channel broke');
        if (args.a === 14) throw 'a string';
        return JSON.stringify(args.a + args.b);
      },
    });
    engine.warmUp(20);
  });

  it('completes with the rendered value', async () => {
    expect(await outcomeOf(engine.run('1 + 1', 1000, false))).toEqual({ type: 'Completed', value: '2' });
    expect(await outcomeOf(engine.run('var x = 1', 1000, false))).toEqual({ type: 'Completed' });
    expect(await outcomeOf(engine.run('x', 1000, false))).toEqual({ type: 'Completed', value: '1' });
  });

  it('awaits at top level', async () => {
    expect(await outcomeOf(engine.run('var q = await Promise.resolve(7); q', 1000, true))).toEqual({
      type: 'Completed',
      value: '7',
    });
    expect(await outcomeOf(engine.run('q * 2', 1000, false))).toEqual({ type: 'Completed', value: '14' });
    const failed = await engine.run('await Promise.reject(new TypeError("no"))', 1000, true);
    expect(failed).toMatchObject({
      type: 'Failed',
      timedOut: false,
      error: expect.stringMatching(/^TypeError: no/) as unknown,
    });
    const never = await engine.run('await new Promise(() => {})', 1000, true);
    expect(never).toMatchObject({
      type: 'Failed',
      error: 'Error: the snippet awaited a promise that never settled',
    });
  });

  it('calls host functions with JSON both ways, and throws their refusal into the snippet', async () => {
    expect(await outcomeOf(engine.run('add(2, 3)', 1000, false))).toEqual({ type: 'Completed', value: '5' });
    const refused = await outcomeOf(
      engine.run('try { add(-1, 3) } catch (e) { e.message + "|" + e.stack }', 1000, false),
    );
    expect(refused).toMatchObject({
      type: 'Completed',
      value: expect.stringMatching(/^add: a must not be negative\|/) as unknown,
    });
    expect(JSON.stringify(refused)).not.toContain('/work'); // no host path in the guest's stack
    const broken = await outcomeOf(
      engine.run('try { add(13, 1) } catch (e) { e.message + "|" + e.stack }', 1000, false),
    );
    expect(broken).toMatchObject({ value: expect.stringMatching(/^add: the channel broke\|/) as unknown });
    expect(JSON.stringify(broken)).not.toContain('/work');
    expect(await outcomeOf(engine.run('try { add(14, 1) } catch (e) { e.message }', 1000, false))).toEqual({
      type: 'Completed',
      value: 'add: a string',
    });
  });

  it('interrupts a runaway snippet at its deadline and stays usable', async () => {
    const started = Date.now();
    expect(await outcomeOf(engine.run('while (true) {}', 200, false))).toEqual({
      type: 'Failed',
      error: 'TimeoutError: the snippet was stopped at its 200 ms timeout',
      timedOut: true,
    });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await outcomeOf(engine.run('x + 1', 1000, false))).toEqual({ type: 'Completed', value: '2' });
  });

  it('drains promise jobs under the same deadline', async () => {
    const result = await engine.run('(async () => { for (;;) await null; })(); 1', 200, false);
    expect(result).toMatchObject({ type: 'Failed', timedOut: true });
  });

  it('reports out of memory, stack overflow and thrown values', async () => {
    const oom = await engine.run('var bomb = []; for (;;) bomb.push(new Array(1e5).fill(1))', 10_000, false);
    expect(oom).toMatchObject({
      type: 'Failed',
      timedOut: false,
      error: expect.stringContaining('out of memory') as unknown,
    });
    expect(await outcomeOf(engine.run('bomb = undefined; 3', 1000, false))).toEqual({
      type: 'Completed',
      value: '3',
    });
    const deep = await outcomeOf(engine.run('function f() { return f() + 1 } f()', 1000, false));
    expect(deep).toMatchObject({ type: 'Failed', error: expect.stringContaining('RangeError') as unknown });
    expect(await outcomeOf(engine.run('throw { code: 7 }', 1000, false))).toEqual({
      type: 'Failed',
      error: 'Uncaught {code: 7}',
      timedOut: false,
    });
  });

  it('names its engine, and reports a thrown value it cannot render by its name', async () => {
    expect(engine.versions['quickjs']).toMatch(/^\d+\.\d+/);
    const odd = await outcomeOf(engine.run('throw { get boom() { throw new Error("no") } }', 1000, false));
    expect(odd).toEqual({ type: 'Failed', error: 'Error: [object Object]', timedOut: false });
  });

  it('lists rejections nobody handled', async () => {
    const result = await engine.run(
      'Promise.reject(new Error("late")); Promise.reject(42); const p = Promise.reject(1); p.catch(() => {}); 0',
      1000,
      false,
    );
    expect(result.rejections).toEqual(['Uncaught (in promise) Error: late', 'Uncaught (in promise) 42']);
    const evil = await engine.run('Promise.reject({ get boom() { throw new Error("no") } }); 0', 1000, false);
    expect(evil.rejections).toEqual(['Uncaught (in promise) (a value that could not be rendered)']);
    expect((await engine.run('0', 1000, false)).rejections).toEqual([]);
  });

  it('exposes none of the host', async () => {
    const probe = 'typeof process + typeof require + typeof setTimeout + typeof fetch + typeof WebAssembly';
    expect(await outcomeOf(engine.run(probe, 1000, false))).toEqual({
      type: 'Completed',
      value: 'undefinedundefinedundefinedundefinedundefined',
    });
    expect(written.length).toBe(0);
  });

  it("exposes one execute's inputs as read-only globals, and removes them at the next without", () => {
    expect(engine.exposeInputs({ args: ['a', 'b'], env: { K: 'v' }, stdin: 'in' })).toBeUndefined();
    const seen = engine.runScript(
      'try { args.push("c") } catch {} env.K = "w"; stdin = "x"; var args = 1; [args.join(), env.K, stdin].join("|")',
      1000,
    );
    expect(seen).toMatchObject({ type: 'Completed', value: 'a,b|v|in' });
    expect(engine.exposeInputs(undefined)).toBeUndefined();
    expect(engine.runScript('typeof args + typeof env + typeof stdin', 1000)).toMatchObject({
      value: 'undefinedundefinedundefined',
    });
  });

  it('refuses to expose inputs over a global an earlier snippet took', () => {
    engine.runScript('var stdin = "mine"', 1000);
    expect(engine.exposeInputs({ args: [], env: {}, stdin: 'theirs' })).toBe(
      "InputError: this execute's stdin cannot be exposed: an earlier snippet took the global name stdin",
    );
    expect(engine.runScript('stdin + typeof args', 1000)).toMatchObject({ value: 'mineundefined' });
  });

  it('stops when told the host is gone', async () => {
    const stopping = await Engine.create({
      wasm,
      memoryLimitBytes: 8 * MIB,
      maxStackBytes: 256 * 1024,
      hostFunctions: [],
      write: () => undefined,
      callHost: () => 'null',
      shouldStop: () => true,
    });
    expect(await outcomeOf(stopping.run('for (;;) {}', 60_000, false))).toMatchObject({
      type: 'Failed',
      error: expect.stringMatching(/^InternalError: interrupted/) as unknown,
      timedOut: false,
    });
  });
});

describe('promise jobs a stopped snippet leaves behind', () => {
  const create = () =>
    Engine.create({
      wasm,
      memoryLimitBytes: 16 * MIB,
      maxStackBytes: 256 * 1024,
      hostFunctions: [],
      write: () => undefined,
      callHost: () => 'null',
    });

  it('still run after the snippet throws, as in an event loop', async () => {
    const engine = await create();
    expect(
      await engine.run(
        'var later = 0; Promise.resolve().then(() => later = 1); throw new Error("sync")',
        1000,
        false,
      ),
    ).toMatchObject({ type: 'Failed' });
    expect(await outcomeOf(engine.run('later', 1000, false))).toEqual({ type: 'Completed', value: '1' });
  });

  it('are discarded when the drain was stopped, so they never run into the next snippet', async () => {
    const engine = await create();
    const spin = await engine.run(
      'var spins = 0; (function spin() { spins++; return Promise.resolve().then(spin) })(); 1',
      100,
      false,
    );
    // Stopped by the deadline, or (on a loaded machine, before it) by the memory limit the endless jobs
    // reach first: either way the drain stopped, which is what the next snippet must not see.
    expect(spin).toMatchObject({ type: 'Failed' });
    const after = await outcomeOf(engine.run('spins', 1000, false));
    expect(after.type).toBe('Completed');
    const count = Number((after as { value: string }).value);
    expect(await outcomeOf(engine.run('spins', 1000, false))).toEqual({
      type: 'Completed',
      value: String(count),
    });
    expect(engine.jobsLeft).toBe(false);
  });

  it('that keep multiplying mark the engine for replacement', async () => {
    const engine = await create();
    const bomb = await engine.run(
      '(function fork() { Promise.resolve().then(fork); Promise.resolve().then(fork) })(); 1',
      100,
      false,
    );
    expect(bomb).toMatchObject({ type: 'Failed' });
    expect(engine.jobsLeft).toBe(true);
  });
});
