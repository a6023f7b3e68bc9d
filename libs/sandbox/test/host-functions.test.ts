/**
 * Host functions from a snippet's side: synchronous calls, JSON both ways, arguments checked on the
 * host, failures thrown into the snippet, secrets kept out, a registry frozen at boot.
 */
import { SecretRegistry } from '@helios/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HostFunction, HostFunctionRegistry, HostParameter } from '../src/host/host-function.js';
import { openSandbox, type OpenSandbox } from './sandbox-kit.js';

const secrets = new SecretRegistry();
secrets.register('STRIPE_KEY', 'sk_live_abcdef123456');
const seen: unknown[] = [];
const registry = new HostFunctionRegistry([
  HostFunction(
    'marketQuote',
    'Current price of a ticker',
    [HostParameter.required('ticker', 'string', 'Ticker symbol')],
    (args, context) => {
      seen.push([args['ticker'], context.sessionId]);
      return { ticker: args['ticker'], price: 187.5 };
    },
  ),
  HostFunction(
    'asyncDouble',
    'Doubles, later',
    [HostParameter.required('n', 'integer', '')],
    async (args) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      return (args['n'] as number) * 2;
    },
  ),
  HostFunction('failing', 'Always fails', [], () => {
    throw new Error('upstream 401 for key sk_live_abcdef123456');
  }),
  HostFunction('leaky', 'Returns the key', [], () => 'the key is sk_live_abcdef123456'),
  HostFunction(
    'evil',
    'Returns a polluting value',
    [],
    () =>
      JSON.parse(
        '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted2":"yes"}}}',
      ) as unknown,
  ),
  HostFunction('hang', 'Never answers', [], () => new Promise(() => undefined)),
  HostFunction(
    'options',
    'Optional args',
    [HostParameter.optional('limit', 'integer', ''), HostParameter.optional('tags', 'array', '')],
    (args) => Object.keys(args),
  ),
]);

let box: OpenSandbox;
beforeAll(async () => {
  box = await openSandbox({ hostFunctions: registry, callTimeoutMs: 2_000 }, secrets);
});
afterAll(() => box.close());

describe('a host function called from a snippet', () => {
  it('answers synchronously with JSON', async () => {
    const result = await box.run(
      'const q = marketQuote("AAPL"); println(q.ticker, q.price); asyncDouble(21)',
    );
    expect(result).toMatchObject({ exitCode: 0, stdout: 'AAPL 187.5\n', value: '42' });
    expect(seen).toEqual([['AAPL', box.session.sessionId]]);
  });

  it('many times in one execute', async () => {
    expect(
      (await box.run('let total = 0; for (let i = 0; i < 500; i++) total += asyncDouble(i); total')).value,
    ).toBe(String(499 * 500));
  });

  it('with optional arguments left out', async () => {
    expect((await box.run('[options(), options(5), options(undefined, ["a"])]')).value).toBe(
      '[[], ["limit"], ["tags"]]',
    );
  });

  it('throws the host’s refusal into the snippet, where it can be caught', async () => {
    const result = await box.run('try { marketQuote(42) } catch (e) { e.message }');
    expect(result.value).toBe("marketQuote: parameter 'ticker' must be a string");
    const missing = await box.run('marketQuote()');
    expect(missing).toMatchObject({
      exitCode: 1,
      stderr: expect.stringContaining("Error: marketQuote: missing required parameter 'ticker'") as unknown,
    });
  });

  it('reports a handler failure redacted, before it enters the sandbox', async () => {
    const result = await box.run(
      'let message; try { failing() } catch (e) { message = e.message } message.split("").reverse().join("")',
    );
    expect(result.value).toBe('>YEK_EPIRTS:detcader< yek rof 104 maertspu :deliaf gniliaf');
  });

  it('never lets a registered secret into the sandbox, even through a result', async () => {
    const result = await box.run('leaky().split("").reverse().join("")');
    expect(result.value).toBe('>YEK_EPIRTS:detcader< si yek eht');
  });

  it('stops waiting for a handler at the snippet’s deadline', async () => {
    const started = Date.now();
    // The host answers at the deadline; the snippet sees the failure (and is then stopped, or just ends).
    await box.run('let why; try { hang() } catch (e) { why = e.message } why', { timeoutMs: 300 });
    expect((await box.run('why')).value).toMatch(/^hang failed: timed out after \d+ ms$/);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect((await box.run('1 + 1')).value).toBe('2');
  });

  it('cannot pollute a prototype through a return value, in the host or the sandbox', async () => {
    const result = await box.run(
      'const e = evil(); const merged = Object.assign({}, e); [({}).polluted, ({}).polluted2, Object.keys(e).join(","), typeof e.constructor]',
    );
    expect(result.value).toBe('[undefined, undefined, "__proto__,constructor", "object"]');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['polluted2']).toBeUndefined();
  });
});

describe('the registry', () => {
  it('is frozen once a sandbox has booted with it', () => {
    expect(registry.isFrozen).toBe(true);
    expect(() => registry.register(HostFunction('late', 'Too late', [], () => 1))).toThrow(/frozen/);
  });

  it('is named in the Execute tool’s description', () => {
    expect(box.provider.describe()).toContain(
      'Host functions you can call: marketQuote, asyncDouble, failing, leaky, evil, hang, options.',
    );
  });
});
