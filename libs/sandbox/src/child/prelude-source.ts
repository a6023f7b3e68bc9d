/**
 * The prelude every sandbox boots with, as JavaScript source the engine evaluates once. It is a factory:
 * the child calls it with its two native functions (write to a stream, call the host) and the
 * registered host functions' shapes, so no native function is ever reachable by a global name. It
 * defines the helpers (writable, so a snippet may reuse a name like `sum` for its own variable).
 *
 * Helpers (reference §5.5, in JavaScript): print (no newline), println, printf, console.log/info/debug
 * (stdout) and console.warn/error (stderr); sum, sumInts (each element truncated to an integer, as
 * Java's longValue), mean, max, min (NaN when empty), join(separator, xs), filter(xs, predicate),
 * map(xs, fn), sorted(xs[, compare]) (a new array: numbers numerically, everything else as strings),
 * countBy(xs, keyFn) (an object of counts keyed by String(keyFn(x))). Host-function wrappers take
 * positional arguments in the declared order and pass them as a JSON object keyed by parameter name;
 * the answer comes back as JSON.
 *
 * The factory returns the value renderer (`show`) and `setInputs`, which exposes one execute's request
 * inputs as the read-only globals `args` (a frozen array of strings), `env` (a frozen object of strings)
 * and `stdin` (a string) — removed again at the next execute that carries none. It answers the name of
 * a global an earlier snippet already took, in which case nothing is exposed.
 */
export const PRELUDE_SOURCE = String.raw`(function (write, callHost, hostFunctions) {
  'use strict';
  const g = globalThis;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const keysOf = Object.keys;
  const isArray = Array.isArray;
  const arrayFrom = Array.from;
  const defineProperty = Object.defineProperty;
  const define = (name, value) =>
    defineProperty(g, name, { value, writable: true, configurable: true, enumerable: false });

  function quoteKey(key) {
    return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? key : stringify(key);
  }
  function inspect(value, depth, seen) {
    switch (typeof value) {
      case 'string': return depth === 0 ? value : stringify(value);
      case 'function': return '[Function' + (value.name ? ': ' + value.name : '') + ']';
      case 'bigint': return String(value) + 'n';
      case 'symbol': return value.toString();
      case 'object': break;
      default: return String(value);
    }
    if (value === null) return 'null';
    if (seen.indexOf(value) >= 0) return '[Circular]';
    if (value instanceof Error) return value.name + ': ' + value.message;
    if (value instanceof Date) return isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
    if (depth > 5) return isArray(value) ? '[Array]' : '[Object]';
    seen.push(value);
    try {
      const inner = (x) => inspect(x, depth + 1, seen);
      if (isArray(value)) return '[' + value.map(inner).join(', ') + ']';
      if (value instanceof Map) {
        const entries = arrayFrom(value, ([k, v]) => inner(k) + ' => ' + inner(v));
        return 'Map(' + value.size + ') {' + entries.join(', ') + '}';
      }
      if (value instanceof Set) return 'Set(' + value.size + ') {' + arrayFrom(value, inner).join(', ') + '}';
      return '{' + keysOf(value).map((k) => quoteKey(k) + ': ' + inner(value[k])).join(', ') + '}';
    } finally {
      seen.pop();
    }
  }
  const show = (value) => inspect(value, 0, []);
  const line = (args) => args.map(show).join(' ');

  function formatOne(spec, flags, width, precision, arg) {
    let text;
    switch (spec) {
      case 'd': case 'i': text = String(Math.trunc(Number(arg))); break;
      case 'f': text = Number(arg).toFixed(precision === undefined ? 6 : precision); break;
      case 'e': text = Number(arg).toExponential(precision === undefined ? 6 : precision); break;
      case 'x': text = Math.trunc(Number(arg)).toString(16); break;
      case 'X': text = Math.trunc(Number(arg)).toString(16).toUpperCase(); break;
      case 'j': text = stringify(arg); break;
      default: text = show(arg); if (precision !== undefined) text = text.slice(0, precision);
    }
    const pad = (width || 0) - text.length;
    if (pad <= 0) return text;
    if (flags.indexOf('-') >= 0) return text + ' '.repeat(pad);
    return (flags.indexOf('0') >= 0 && spec !== 's' ? '0' : ' ').repeat(pad) + text;
  }
  function sprintf(format, args) {
    let next = 0;
    return String(format).replace(/%([-0]*)(\d+)?(?:\.(\d+))?([sdifeExXjn%])/g,
      (whole, flags, width, precision, spec) => {
        if (spec === '%') return '%';
        if (spec === 'n') return '\n';
        if (next >= args.length) return whole;
        return formatOne(spec, flags, width && Number(width), precision && Number(precision), args[next++]);
      });
  }

  define('print', (...args) => { write(0, line(args)); });
  define('println', (...args) => { write(0, line(args) + '\n'); });
  define('printf', (format, ...args) => { write(0, sprintf(format, args)); });
  const console = {};
  for (const name of ['log', 'info', 'debug']) console[name] = (...args) => { write(0, line(args) + '\n'); };
  for (const name of ['warn', 'error']) console[name] = (...args) => { write(1, line(args) + '\n'); };
  define('console', console);

  function items(xs, helper) {
    if (xs === null || xs === undefined) throw new TypeError(helper + ': expected an array or iterable, got ' + xs);
    return isArray(xs) ? xs : arrayFrom(xs);
  }
  function numbers(xs, helper) {
    return items(xs, helper).map((x) => {
      const n = typeof x === 'bigint' ? Number(x) : x;
      if (typeof n !== 'number') throw new TypeError(helper + ': expected numbers, got ' + show(x));
      return n;
    });
  }
  function extreme(xs, helper, better) {
    const ns = numbers(xs, helper);
    if (ns.length === 0) return NaN;
    let best = ns[0];
    for (const n of ns) if (n !== n || better(n, best)) best = n;
    return best;
  }
  function natural(a, b) {
    if (typeof a === 'number' && typeof b === 'number') return a - b;
    const x = String(a), y = String(b);
    return x < y ? -1 : x > y ? 1 : 0;
  }
  define('sum', (xs) => numbers(xs, 'sum').reduce((a, b) => a + b, 0));
  define('sumInts', (xs) => numbers(xs, 'sumInts').reduce((a, b) => a + Math.trunc(b), 0));
  define('mean', (xs) => {
    const ns = numbers(xs, 'mean');
    return ns.length === 0 ? NaN : ns.reduce((a, b) => a + b, 0) / ns.length;
  });
  define('max', (xs) => extreme(xs, 'max', (a, b) => a > b));
  define('min', (xs) => extreme(xs, 'min', (a, b) => a < b));
  define('join', (separator, xs) => items(xs, 'join').map(show).join(String(separator)));
  define('filter', (xs, predicate) => items(xs, 'filter').filter((x) => predicate(x)));
  define('map', (xs, fn) => items(xs, 'map').map((x) => fn(x)));
  define('sorted', (xs, compare) => items(xs, 'sorted').slice().sort(compare === undefined ? natural : compare));
  define('countBy', (xs, keyFn) => {
    const counts = {};
    for (const x of items(xs, 'countBy')) {
      const key = String(keyFn(x));
      const seen = Object.prototype.hasOwnProperty.call(counts, key) ? counts[key] : 0;
      defineProperty(counts, key, { value: seen + 1, writable: true, enumerable: true, configurable: true });
    }
    return counts;
  });

  for (const fn of hostFunctions) {
    const names = fn.parameters.map((p) => p.name);
    const wrapper = { [fn.name]: function (...args) {
      const packed = {};
      names.forEach((name, i) => { if (args[i] !== undefined) packed[name] = args[i]; });
      return parse(callHost(fn.name, stringify(packed)));
    } }[fn.name];
    define(fn.name, wrapper);
  }

  // One execute's request inputs, as read-only globals that the next execute replaces or removes. The
  // intrinsics are taken now: a snippet replacing its own Object.freeze must not change what this does.
  const INPUT_NAMES = ['args', 'env', 'stdin'];
  const ownDescriptor = Object.getOwnPropertyDescriptor;
  const freeze = Object.freeze;
  let exposed = {};
  function setInputs(json) {
    for (const name of INPUT_NAMES) {
      const own = ownDescriptor(g, name);
      if (own !== undefined && !own.writable && own.value === exposed[name]) delete g[name];
    }
    exposed = {};
    if (json === undefined) return undefined;
    for (const name of INPUT_NAMES) if (ownDescriptor(g, name) !== undefined) return name;
    const inputs = parse(json);
    exposed = { args: freeze(inputs.args), env: freeze(inputs.env), stdin: inputs.stdin };
    for (const name of INPUT_NAMES)
      defineProperty(g, name, { value: exposed[name], writable: false, configurable: true, enumerable: false });
    return undefined;
  }
  return { show, setInputs };
})`;
