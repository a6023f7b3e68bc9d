import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from './engine.js';

const wasm = readFileSync(createRequire(import.meta.url).resolve('quickjs-wasi/quickjs.wasm'));

describe('the prelude', () => {
  let out: { stdout: string; stderr: string };
  const calls: [string, string][] = [];
  let engine: Engine;
  beforeAll(async () => {
    engine = await Engine.create({
      wasm,
      memoryLimitBytes: 32 * 1024 * 1024,
      maxStackBytes: 256 * 1024,
      hostFunctions: [
        {
          name: 'quote',
          parameters: [
            { name: 'ticker', type: 'string' },
            { name: 'days', type: 'integer' },
          ],
        },
      ],
      write: (stream, text) => (out[stream] += text),
      callHost: (name, argsJson) => {
        calls.push([name, argsJson]);
        return JSON.stringify({ echoed: JSON.parse(argsJson) as unknown });
      },
    });
  });
  beforeEach(() => {
    out = { stdout: '', stderr: '' };
  });
  const value = async (code: string): Promise<string | undefined> => {
    const result = await engine.run(code, 2000, false);
    if (result.type === 'Failed') throw new Error(result.error);
    return result.value;
  };

  it('prints: print without a newline, println with one, printf formatted, console to both streams', async () => {
    await value('print("a", 1, [1, "b"], {k: null}); println(); println("x", undefined, 2n, Symbol("s"))');
    await value(
      'printf("%s=%d|%5.2f|%-4s|%04d|%x|%X|%e|%j|%%|%n|%s", "n", 42.9, 3.14159, "ab", 7, 255, 255, 12345, {a: 1}, "extra"); printf("%s %s", 1)',
    );
    await value(
      'console.log("log"); console.info("info"); console.debug("debug"); console.warn("warn"); console.error("error")',
    );
    expect(out.stdout).toBe(
      'a 1 [1, "b"] {k: null}\nx undefined 2n Symbol(s)\nn=42| 3.14|ab  |0007|ff|FF|1.234500e+4|{"a":1}|%|\n|extra1 %slog\ninfo\ndebug\n',
    );
    expect(out.stderr).toBe('warn\nerror\n');
  });

  it('renders values: nested, circular, maps, sets, dates, errors, functions, odd keys', async () => {
    expect(await value('const o = { a: [1, { b: "s" }], "odd key": true }; o.self = o; o')).toBe(
      '{a: [1, {b: "s"}], "odd key": true, self: [Circular]}',
    );
    expect(await value('new Map([[1, "a"]])')).toBe('Map(1) {1 => "a"}');
    expect(await value('new Set([1, 2])')).toBe('Set(2) {1, 2}');
    expect(await value('new Date(0)')).toBe('1970-01-01T00:00:00.000Z');
    expect(await value('new Date(NaN)')).toBe('Invalid Date');
    expect(await value('new RangeError("r")')).toBe('RangeError: r');
    expect(await value('[function named() {}, () => 1]')).toBe('[[Function: named], [Function]]');
    expect(await value('[[[[[[[1]]]]]]]')).toBe('[[[[[[[Array]]]]]]]');
    expect(await value('"text"')).toBe('text');
    expect(await value('null')).toBe('null');
  });

  it('sums, averages and finds extremes, NaN when empty', async () => {
    expect(
      await value(
        '[sum([1, 2.5]), sumInts([1.9, -1.9, 3]), mean([1, 2, 3, 4]), max([3, 9, 1]), min(new Set([3, 9, 1]))]',
      ),
    ).toBe('[3.5, 3, 2.5, 9, 1]');
    expect(await value('[sum([]), mean([]), max([]), min([]), max([1, NaN]), sum([1n, 2])]')).toBe(
      '[0, NaN, NaN, NaN, NaN, 3]',
    );
    await expect(value('sum(["1"])')).rejects.toThrow('TypeError: sum: expected numbers, got 1');
    await expect(value('mean(null)')).rejects.toThrow(
      'TypeError: mean: expected an array or iterable, got null',
    );
  });

  it('joins, filters, maps, sorts and counts', async () => {
    expect(await value('join(", ", [1, "a", [2]])')).toBe('1, a, [2]');
    expect(await value('filter([1, 2, 3, 4], (x) => x % 2 === 0)')).toBe('[2, 4]');
    expect(await value('map(new Set([1, 2]), (x) => x * 10)')).toBe('[10, 20]');
    expect(
      await value(
        'const xs = [10, 9, 1, 100]; [sorted(xs), xs, sorted(["b", "a", "C"]), sorted([1, "a", 2]), sorted([1, 3, 2], (a, b) => b - a)]',
      ),
    ).toBe('[[1, 9, 10, 100], [10, 9, 1, 100], ["C", "a", "b"], [1, 2, "a"], [3, 2, 1]]');
    expect(
      await value(
        'countBy(["apple", "avocado", "banana", "__proto__"], (s) => s === "__proto__" ? s : s[0])',
      ),
    ).toBe('{a: 2, b: 1, __proto__: 1}');
    expect(await value('Object.getPrototypeOf(countBy(["__proto__"], (s) => s)) === Object.prototype')).toBe(
      'true',
    );
  });

  it('lets a snippet reuse a helper name for its own variable', async () => {
    expect(await value('var sum = 0; for (const x of [1, 2]) sum += x; sum')).toBe('3');
    expect(await value('typeof sum')).toBe('number');
  });

  it('calls host functions with positional arguments packed by parameter name, as JSON', async () => {
    expect(await value('quote("AAPL", 5)')).toBe('{echoed: {ticker: "AAPL", days: 5}}');
    expect(await value('quote("MSFT")')).toBe('{echoed: {ticker: "MSFT"}}');
    expect(await value('quote("X", undefined, "ignored")')).toBe('{echoed: {ticker: "X"}}');
    expect(calls).toEqual([
      ['quote', '{"ticker":"AAPL","days":5}'],
      ['quote', '{"ticker":"MSFT"}'],
      ['quote', '{"ticker":"X"}'],
    ]);
    await expect(value('const c = {}; c.c = c; quote(c)')).rejects.toThrow(/TypeError: circular/);
  });

  it('keeps the native functions out of reach', async () => {
    expect(await value('[typeof write, typeof callHost, typeof hostFunctions, quote.name]')).toBe(
      '["undefined", "undefined", "undefined", "quote"]',
    );
    expect(
      await value('Object.getOwnPropertyNames(globalThis).filter((n) => /write|callHost/.test(n))'),
    ).toBe('[]');
  });
});
