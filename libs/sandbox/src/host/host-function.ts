/**
 * Host functions: what a deployer lets snippets call. Each runs in the host process — credentials stay
 * there — and is called from a snippet as a plain synchronous function with positional arguments in
 * the declared order. Arguments and results cross as JSON only; the host checks the arguments against
 * the declared parameters before the handler sees them. A registry is frozen when the first sandbox
 * boots with it, so the functions a sandbox was told about are the only ones it can reach.
 */
import { InvalidArgumentError } from '@helios/core';
import { type HostParameterType } from '../child/protocol.js';

export { type HostParameterType };

export interface HostParameter {
  readonly name: string;
  readonly type: HostParameterType;
  readonly description: string;
  readonly required: boolean;
}

/** What a handler learns about its call besides the arguments. */
export interface HostCallContext {
  readonly sessionId: string;
  /** Fires when the call must stop: the snippet's execute ended, or the call's own timeout passed. */
  readonly signal: AbortSignal;
}

/** Arguments checked against the declared parameters: only declared names, JSON values. */
export type HostArguments = Readonly<Record<string, unknown>>;
export type HostFunctionHandler = (args: HostArguments, context: HostCallContext) => unknown;

export interface HostFunction {
  readonly name: string;
  readonly description: string;
  readonly parameters: readonly HostParameter[];
  readonly handler: HostFunctionHandler;
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const PARAMETER_TYPES: readonly HostParameterType[] = [
  'string',
  'integer',
  'number',
  'boolean',
  'array',
  'object',
];

/** The reference's reserved callbacks: never synthesised as host functions. */
export const RESERVED_HOST_NAMES: readonly string[] = Object.freeze([
  'predict',
  'submit',
  'fetch',
  'query',
  'getInput',
  '__getInput',
  '__call',
]);

/** Names a host function may not take: the prelude's, the language's and the globals snippets rely on. */
const UNAVAILABLE_NAMES = new Set([
  ...RESERVED_HOST_NAMES,
  ...[
    'print',
    'println',
    'printf',
    'console',
    'sum',
    'sumInts',
    'mean',
    'max',
    'min',
    'join',
    'filter',
    'map',
    'sorted',
    'countBy',
  ],
  ...[
    'globalThis',
    'Object',
    'Array',
    'Function',
    'JSON',
    'Math',
    'Promise',
    'Error',
    'String',
    'Number',
    'Boolean',
    'Symbol',
  ],
  ...['eval', 'undefined', 'NaN', 'Infinity', 'arguments', 'await', 'async', 'let', 'static', 'yield', 'of'],
  ...[
    'break',
    'case',
    'catch',
    'class',
    'const',
    'continue',
    'debugger',
    'default',
    'delete',
    'do',
    'else',
    'enum',
  ],
  ...[
    'export',
    'extends',
    'false',
    'finally',
    'for',
    'function',
    'if',
    'implements',
    'import',
    'in',
    'instanceof',
  ],
  ...[
    'interface',
    'new',
    'null',
    'package',
    'private',
    'protected',
    'public',
    'return',
    'super',
    'switch',
    'this',
  ],
  ...['throw', 'true', 'try', 'typeof', 'var', 'void', 'while', 'with'],
]);
/** Parameter names that would not stay plain keys of the arguments object. */
const UNAVAILABLE_PARAMETER_NAMES = new Set(['__proto__', 'constructor', 'prototype']);

export const HostParameter = {
  required(name: string, type: HostParameterType, description: string): HostParameter {
    return hostParameter(name, type, description, true);
  },
  optional(name: string, type: HostParameterType, description: string): HostParameter {
    return hostParameter(name, type, description, false);
  },
} as const;

function hostParameter(
  name: string,
  type: HostParameterType,
  description: string,
  required: boolean,
): HostParameter {
  if (typeof name !== 'string' || !IDENTIFIER.test(name) || UNAVAILABLE_PARAMETER_NAMES.has(name)) {
    throw new InvalidArgumentError(
      `host parameter name must be a JavaScript identifier, got ${JSON.stringify(name)}`,
    );
  }
  if (!PARAMETER_TYPES.includes(type)) {
    throw new InvalidArgumentError(`host parameter '${name}' has unknown type ${JSON.stringify(type)}`);
  }
  if (typeof description !== 'string')
    throw new InvalidArgumentError(`host parameter '${name}' needs a description`);
  return Object.freeze({ name, type, description, required });
}

/** A host function; throws InvalidArgumentError for a name snippets could not call or a malformed parameter list. */
export function HostFunction(
  name: string,
  description: string,
  parameters: readonly HostParameter[],
  handler: HostFunctionHandler,
): HostFunction {
  if (typeof name !== 'string' || !IDENTIFIER.test(name)) {
    throw new InvalidArgumentError(
      `host function name must be a JavaScript identifier, got ${JSON.stringify(name)}`,
    );
  }
  if (UNAVAILABLE_NAMES.has(name)) throw new InvalidArgumentError(`host function name '${name}' is reserved`);
  if (typeof description !== 'string' || description.trim() === '') {
    throw new InvalidArgumentError(`host function '${name}' needs a non-blank description`);
  }
  if (typeof handler !== 'function')
    throw new InvalidArgumentError(`host function '${name}' needs a handler`);
  const checked = parameters.map((p) => hostParameter(p.name, p.type, p.description, p.required));
  const names = new Set(checked.map((p) => p.name));
  if (names.size !== checked.length)
    throw new InvalidArgumentError(`host function '${name}' declares a parameter twice`);
  return Object.freeze({ name, description, parameters: Object.freeze(checked), handler });
}

export class HostFunctionRegistry {
  readonly #functions = new Map<string, HostFunction>();
  #frozen = false;

  constructor(functions: readonly HostFunction[] = []) {
    for (const fn of functions) this.register(fn);
  }

  /** Adds `fn`; throws once frozen or for a name already registered. */
  register(fn: HostFunction): this {
    if (this.#frozen)
      throw new InvalidArgumentError(`host function registry is frozen; '${fn.name}' cannot be added`);
    if (this.#functions.has(fn.name))
      throw new InvalidArgumentError(`host function '${fn.name}' is already registered`);
    this.#functions.set(fn.name, HostFunction(fn.name, fn.description, fn.parameters, fn.handler));
    return this;
  }

  get(name: string): HostFunction | undefined {
    return this.#functions.get(name);
  }

  all(): readonly HostFunction[] {
    return [...this.#functions.values()];
  }

  get size(): number {
    return this.#functions.size;
  }

  freeze(): this {
    this.#frozen = true;
    return this;
  }

  get isFrozen(): boolean {
    return this.#frozen;
  }
}
