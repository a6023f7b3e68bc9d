/**
 * `${VAR}` interpolation in every string of a parsed document (keys are left alone). Bare `$VAR` is
 * literal text. An unset variable is an issue at the string's path; all of them are collected.
 */
import { type PolicyConfigIssue, formatIssuePath } from './policy-config-error.js';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

export type EnvironmentMap = Readonly<Record<string, string | undefined>>;

export function interpolateEnvironment(
  value: unknown,
  env: EnvironmentMap,
  issues: PolicyConfigIssue[],
  path: readonly PropertyKey[] = [],
): unknown {
  if (typeof value === 'string') return interpolateString(value, env, issues, path);
  if (Array.isArray(value))
    return value.map((item, i) => interpolateEnvironment(item, env, issues, [...path, i]));
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties: a `__proto__` key stays a key (and meets the schema's checks)
    // instead of replacing the prototype of the copy.
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        interpolateEnvironment(item, env, issues, [...path, key]),
      ]),
    );
  }
  return value;
}

function interpolateString(
  text: string,
  env: EnvironmentMap,
  issues: PolicyConfigIssue[],
  path: readonly PropertyKey[],
): string {
  if (!text.includes('${')) return text;
  return text.replace(REFERENCE, (whole, name: string) => {
    const resolved = Object.hasOwn(env, name) ? env[name] : undefined;
    if (resolved === undefined) {
      issues.push({ path: formatIssuePath(path), message: `environment variable ${name} is not set` });
      return whole;
    }
    return resolved;
  });
}
