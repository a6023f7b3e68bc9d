/**
 * The LocalProcessExecutionProvider's settings, each with its default, checked once at construction.
 */
import { isAbsolute } from 'node:path';
import { InvalidArgumentError } from '@helios/core';
import { resolveAllowedDirectories } from './working-directory.js';

export interface LocalProcessOptions {
  /** The child's PATH; absolute directories only. Default `/usr/local/bin:/usr/bin:/bin`. */
  readonly path?: string;
  /** Names copied from this process's environment when set there; default LANG, LC_ALL, TZ. */
  readonly allowedEnvironment?: readonly string[];
  /** Fixed variables every call gets (not secrets: the script can print them). */
  readonly variables?: Readonly<Record<string, string>>;
  /** Per call when the request names none; default 30 s. */
  readonly defaultTimeoutMs?: number;
  /** The longest a request may ask for; default 5 min. */
  readonly maxTimeoutMs?: number;
  /** Calls running at once across sessions; one more is refused. Default 4. */
  readonly maxConcurrent?: number;
  /**
   * Run each call in its own pid namespace (bubblewrap, which must then be installed), so every process
   * it starts — setsid daemons included — ends with it: `auto` (default) when bwrap works here, `off`.
   */
  readonly pidNamespace?: 'auto' | 'off';
  /** Where bwrap is; default found on PATH. */
  readonly bubblewrapPath?: string;
  /**
   * Absolute directories a request's `workingDirectory` may name (itself or anything below it, symbolic
   * links resolved); default none: every call runs in its fresh temporary directory.
   */
  readonly workingDirectories?: readonly string[];
}

export interface LocalProcessConfig {
  readonly path: string;
  readonly allowedEnvironment: readonly string[];
  readonly variables: Readonly<Record<string, string>>;
  readonly defaultTimeoutMs: number;
  readonly maxTimeoutMs: number;
  readonly maxConcurrent: number;
  readonly pidNamespace: 'auto' | 'off';
  readonly bubblewrapPath: string | undefined;
  /** Resolved (real paths). */
  readonly workingDirectories: readonly string[];
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

export function resolveLocalProcessConfig(options: LocalProcessOptions = {}): LocalProcessConfig {
  const path = options.path ?? '/usr/local/bin:/usr/bin:/bin';
  if (path === '' || path.includes('\0') || !path.split(':').every((dir) => dir.startsWith('/'))) {
    throw new InvalidArgumentError(
      `path must be ':'-separated absolute directories, got ${JSON.stringify(path)}`,
    );
  }
  const allowed = options.allowedEnvironment ?? ['LANG', 'LC_ALL', 'TZ'];
  const variables = options.variables ?? {};
  for (const name of [...allowed, ...Object.keys(variables)]) {
    if (!NAME.test(name) || name === 'PATH')
      throw new InvalidArgumentError(`environment variable name ${JSON.stringify(name)} is not allowed`);
  }
  for (const [name, value] of Object.entries(variables)) {
    if (typeof value !== 'string' || value.includes('\0'))
      throw new InvalidArgumentError(`value of ${name} must be a string without NUL`);
  }
  for (const directory of options.workingDirectories ?? []) {
    if (typeof directory !== 'string' || !isAbsolute(directory) || directory.includes('\0'))
      throw new InvalidArgumentError(
        `workingDirectories must be absolute paths, got ${JSON.stringify(directory)}`,
      );
  }
  const config: LocalProcessConfig = {
    path,
    allowedEnvironment: Object.freeze([...allowed]),
    variables: Object.freeze({ ...variables }),
    defaultTimeoutMs: positive(options.defaultTimeoutMs ?? 30_000, 'defaultTimeoutMs'),
    maxTimeoutMs: positive(options.maxTimeoutMs ?? 300_000, 'maxTimeoutMs'),
    maxConcurrent: positive(options.maxConcurrent ?? 4, 'maxConcurrent'),
    pidNamespace: options.pidNamespace ?? 'auto',
    bubblewrapPath: options.bubblewrapPath,
    workingDirectories: resolveAllowedDirectories(options.workingDirectories ?? []),
  };
  if (config.defaultTimeoutMs > config.maxTimeoutMs) {
    throw new InvalidArgumentError(
      `defaultTimeoutMs (${config.defaultTimeoutMs}) exceeds maxTimeoutMs (${config.maxTimeoutMs})`,
    );
  }
  if (config.pidNamespace !== 'auto' && config.pidNamespace !== 'off') {
    throw new InvalidArgumentError(
      `pidNamespace must be 'auto' or 'off', got ${JSON.stringify(config.pidNamespace)}`,
    );
  }
  return Object.freeze(config);
}

function positive(value: number, field: string): number {
  if (!Number.isSafeInteger(value) || value < 1)
    throw new InvalidArgumentError(`${field} must be a positive integer, got ${String(value)}`);
  return value;
}
