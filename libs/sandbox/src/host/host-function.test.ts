import { InvalidArgumentError } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { checkArguments } from './host-arguments.js';
import { HostFunction, HostFunctionRegistry, HostParameter } from './host-function.js';
import { SandboxPrelude } from './sandbox-prelude.js';

const noop = () => null;
const quote = HostFunction(
  'marketQuote',
  'Current price of a ticker',
  [
    HostParameter.required('ticker', 'string', 'Ticker symbol'),
    HostParameter.optional('days', 'integer', ''),
  ],
  noop,
);

describe('HostFunction', () => {
  it('is frozen and keeps its declared parameters', () => {
    expect(Object.isFrozen(quote)).toBe(true);
    expect(quote.parameters.map((p) => [p.name, p.type, p.required])).toEqual([
      ['ticker', 'string', true],
      ['days', 'integer', false],
    ]);
  });

  it('refuses names a snippet could not call, reserved names, blank descriptions and bad parameters', () => {
    const refused = [
      () => HostFunction('not-an-identifier', 'd', [], noop),
      () => HostFunction('print', 'd', [], noop),
      () => HostFunction('fetch', 'd', [], noop),
      () => HostFunction('class', 'd', [], noop),
      () => HostFunction('ok', ' ', [], noop),
      () => HostFunction('ok', 'd', [], 'nope' as never),
      () =>
        HostFunction(
          'ok',
          'd',
          [HostParameter.required('a', 'string', ''), HostParameter.required('a', 'number', '')],
          noop,
        ),
      () => HostParameter.required('__proto__', 'object', ''),
      () => HostParameter.required('1x', 'string', ''),
      () => HostParameter.required('x', 'date' as never, ''),
      () => HostParameter.required('x', 'string', 3 as never),
    ];
    for (const attempt of refused) expect(attempt).toThrow(InvalidArgumentError);
  });
});

describe('HostFunctionRegistry', () => {
  it('registers, looks up and refuses duplicates and anything after freeze', () => {
    const registry = new HostFunctionRegistry([quote]);
    expect(registry.size).toBe(1);
    expect(registry.get('marketQuote')).toBe(registry.all()[0]);
    expect(registry.get('other')).toBeUndefined();
    expect(() => registry.register(quote)).toThrow(/already registered/);
    expect(registry.freeze().isFrozen).toBe(true);
    expect(() => registry.register(HostFunction('later', 'd', [], noop))).toThrow(/frozen/);
  });
});

describe('checkArguments', () => {
  const typed = HostFunction(
    'typed',
    'd',
    (['string', 'integer', 'number', 'boolean', 'array', 'object'] as const).map((type) =>
      HostParameter.optional(type, type, ''),
    ),
    noop,
  );

  it('passes declared names of the declared types, in a fresh null-prototype object', () => {
    const raw = { string: 's', integer: 3, number: 1.5, boolean: false, array: [1], object: { a: 1 } };
    const checked = checkArguments(typed, raw);
    expect(checked).toEqual({ ok: true, args: raw });
    if (checked.ok) {
      expect(Object.getPrototypeOf(checked.args)).toBeNull();
      expect(checked.args).not.toBe(raw);
    }
  });

  it('refuses a non-object, unknown names, missing required ones and wrong types, naming them', () => {
    expect(checkArguments(quote, [])).toEqual({
      ok: false,
      error: 'marketQuote: arguments must be an object',
    });
    expect(checkArguments(quote, null)).toMatchObject({ ok: false });
    expect(checkArguments(quote, JSON.parse('{"ticker":"A","__proto__":{"x":1}}'))).toEqual({
      ok: false,
      error: "marketQuote: unknown parameter '__proto__'",
    });
    expect(checkArguments(quote, {})).toEqual({
      ok: false,
      error: "marketQuote: missing required parameter 'ticker'",
    });
    expect(checkArguments(quote, { ticker: 'A', days: 1.5 })).toEqual({
      ok: false,
      error: "marketQuote: parameter 'days' must be an integer",
    });
    const wrong: Record<string, unknown> = {
      string: 1,
      integer: '1',
      number: Infinity,
      boolean: 0,
      array: {},
      object: [],
    };
    for (const [name, value] of Object.entries(wrong)) {
      expect(checkArguments(typed, { [name]: value })).toMatchObject({
        ok: false,
        error: expect.stringContaining(`'${name}' must be`) as unknown,
      });
    }
  });
});

describe('SandboxPrelude', () => {
  it('summarises the helpers for a system prompt', () => {
    const summary = SandboxPrelude.modelFacingSummary();
    for (const helper of ['println', 'printf', 'sumInts', 'mean', 'countBy', 'sorted', 'Top-level await'])
      expect(summary).toContain(helper);
  });

  it('renders a host function as the model calls it', () => {
    expect(SandboxPrelude.formatSignature(quote)).toBe(
      'marketQuote(ticker: string, days?: number): unknown — Current price of a ticker\n  ticker: Ticker symbol\n  days: (an integer)',
    );
    const all = HostFunction(
      'kinds',
      'All kinds',
      [
        HostParameter.required('a', 'array', 'A list'),
        HostParameter.required('o', 'object', ''),
        HostParameter.required('b', 'boolean', ''),
      ],
      noop,
    );
    expect(SandboxPrelude.formatSignature(all)).toBe(
      'kinds(a: unknown[], o: Record<string, unknown>, b: boolean): unknown — All kinds\n  a: A list',
    );
  });
});
