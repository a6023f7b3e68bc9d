/**
 * The checks every provider applies to a request's optional inputs — args, environment, stdin and
 * working directory — before anything runs, so a caller that bypasses the Execute tool's schema (the
 * library API) gets the same clear refusal as the model does.
 */
import { type ExecutionRequest } from './execution-types.js';

/** Longest stdin, and the most characters all args or all environment values may hold together. */
export const MAX_INPUT_CHARS = 1_000_000;
/** Most args, and most environment variables, one request may carry. */
export const MAX_INPUT_ENTRIES = 1_024;
/** A POSIX shell variable name, which every runtime's environment keys must be. */
export const ENVIRONMENT_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Whether the request carries any input beyond its script (most carry none). */
export function carriesInputs({ args, environment, stdin, workingDirectory }: ExecutionRequest): boolean {
  return (
    args !== undefined || environment !== undefined || stdin !== undefined || workingDirectory !== undefined
  );
}

/** Why the request's inputs are refused, or undefined when they are fine (or absent). */
export function requestInputsProblem(request: ExecutionRequest): string | undefined {
  if (!carriesInputs(request)) return undefined; // the common request: nothing to check
  return (
    argsProblem(request.args) ??
    environmentProblem(request.environment) ??
    stdinProblem(request.stdin) ??
    workingDirectoryProblem(request.workingDirectory)
  );
}

function argsProblem(args: unknown): string | undefined {
  if (args === undefined) return undefined;
  if (!Array.isArray(args)) return 'args must be an array of strings';
  if (args.length > MAX_INPUT_ENTRIES)
    return `args may hold at most ${MAX_INPUT_ENTRIES} entries, got ${args.length}`;
  let chars = 0;
  for (const [index, arg] of args.entries()) {
    if (typeof arg !== 'string') return `args[${index}] must be a string`;
    if (arg.includes('\0')) return `args[${index}] must not contain NUL`;
    chars += arg.length;
  }
  return chars > MAX_INPUT_CHARS ? `args hold ${chars} characters, more than ${MAX_INPUT_CHARS}` : undefined;
}

function environmentProblem(environment: unknown): string | undefined {
  if (environment === undefined) return undefined;
  if (typeof environment !== 'object' || environment === null || Array.isArray(environment))
    return 'environment must be an object of strings';
  const entries = Object.entries(environment);
  if (entries.length > MAX_INPUT_ENTRIES)
    return `environment may hold at most ${MAX_INPUT_ENTRIES} variables, got ${entries.length}`;
  let chars = 0;
  for (const [name, value] of entries) {
    if (!ENVIRONMENT_NAME.test(name))
      return `environment variable name ${JSON.stringify(name)} is not a valid name (letters, digits, _; not starting with a digit)`;
    if (typeof value !== 'string') return `environment.${name} must be a string`;
    if (value.includes('\0')) return `environment.${name} must not contain NUL`;
    chars += value.length;
  }
  return chars > MAX_INPUT_CHARS
    ? `environment values hold ${chars} characters, more than ${MAX_INPUT_CHARS}`
    : undefined;
}

function stdinProblem(stdin: unknown): string | undefined {
  if (stdin === undefined) return undefined;
  if (typeof stdin !== 'string') return 'stdin must be a string';
  return stdin.length > MAX_INPUT_CHARS
    ? `stdin holds ${stdin.length} characters, more than ${MAX_INPUT_CHARS}`
    : undefined;
}

function workingDirectoryProblem(directory: unknown): string | undefined {
  if (directory === undefined) return undefined;
  if (typeof directory !== 'string' || directory === '') return 'workingDirectory must be a non-empty string';
  return directory.includes('\0') ? 'workingDirectory must not contain NUL' : undefined;
}
