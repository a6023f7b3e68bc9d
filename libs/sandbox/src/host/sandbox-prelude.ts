/**
 * What to tell the model about the sandbox, for a system prompt: the helpers every sandbox has
 * (`modelFacingSummary`) and how to call a registered host function (`formatSignature`). The text
 * describes the prelude in child/prelude-source.ts; the two change together.
 */
import { type HostFunction, type HostParameterType } from './host-function.js';

const TYPESCRIPT_TYPES: Readonly<Record<HostParameterType, string>> = {
  string: 'string',
  integer: 'number',
  number: 'number',
  boolean: 'boolean',
  array: 'unknown[]',
  object: 'Record<string, unknown>',
};

const SUMMARY = `The Execute tool runs JavaScript (runtime JAVASCRIPT) or TypeScript (runtime TYPESCRIPT, types are
stripped, not checked) in a sandbox that keeps its state between calls: top-level variables, functions
and classes stay defined, and may be declared again. The value of the last expression is shown after
"=>". Top-level await works. There is no require/import, process, file system, network or timers: the
sandbox reaches the outside only through the host functions listed for you.

Built-in helpers:
- print(...values) writes without a newline; println(...values) with one; printf(format, ...values)
  formats %s %d %i %f %.2f %e %x %j %n %%; console.log/info/debug write to stdout, console.warn/error to stderr.
- sum(xs), sumInts(xs) (each element truncated to an integer), mean(xs), max(xs), min(xs) (NaN when empty).
- join(separator, xs), filter(xs, predicate), map(xs, fn), sorted(xs[, compare]) (a new array; numbers
  numerically, others as strings), countBy(xs, keyFn) (an object of counts keyed by keyFn's result).
  Each takes an array or any iterable.`;

export const SandboxPrelude = {
  /** The helpers and the sandbox's rules, for the model's system prompt. */
  modelFacingSummary(): string {
    return SUMMARY;
  },
  /**
   * `marketQuote(ticker: string): unknown — Current price of a ticker` followed by one line per
   * parameter (`  ticker: Ticker symbol`); optional parameters are marked `?`, integers say so.
   */
  formatSignature(fn: HostFunction): string {
    const params = fn.parameters.map((p) => `${p.name}${p.required ? '' : '?'}: ${TYPESCRIPT_TYPES[p.type]}`);
    const lines = [`${fn.name}(${params.join(', ')}): unknown — ${fn.description}`];
    for (const p of fn.parameters) {
      const integer = p.type === 'integer' ? ' (an integer)' : '';
      const text = `${p.description}${integer}`.trim();
      if (text !== '') lines.push(`  ${p.name}: ${text}`);
    }
    return lines.join('\n');
  },
} as const;
