import { type ConfigIssue } from './config-error.js';

/**
 * Credentials stay out of `helios.yaml`: these settings may name environment variables as `${NAME}`
 * (anywhere in the value). `*` stands for any key or list index. Only these paths are substituted, so
 * a `${…}` in a system prompt stays text.
 */
export const ENV_SUBSTITUTED_PATHS: readonly (readonly string[])[] = [
  ['auth', 'tokens', '*', 'token'],
  ['auth', 'jwt', 'secret'],
  ['agents', '*', 'apiKey'],
];

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in the substituted settings of the parsed YAML, in place. A variable that is unset
 * or empty is an issue at the setting's path naming the variable, never the setting's value.
 */
export function substituteEnv(raw: Record<string, unknown>, env: NodeJS.ProcessEnv): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  for (const pattern of ENV_SUBSTITUTED_PATHS) visit(raw, pattern, [], env, issues);
  return issues;
}

function visit(
  node: unknown,
  pattern: readonly string[],
  at: readonly string[],
  env: NodeJS.ProcessEnv,
  issues: ConfigIssue[],
): void {
  if (typeof node !== 'object' || node === null) return;
  const [head, ...rest] = pattern;
  if (head === undefined) return;
  const container = node as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(container) : Object.hasOwn(container, head) ? [head] : [];
  for (const key of keys) {
    const path = [...at, key];
    if (rest.length > 0) {
      visit(container[key], rest, path, env, issues);
      continue;
    }
    const value = container[key];
    if (typeof value === 'string') container[key] = substitute(value, path.join('.'), env, issues);
  }
}

function substitute(value: string, path: string, env: NodeJS.ProcessEnv, issues: ConfigIssue[]): string {
  return value.replace(REFERENCE, (_match, name: string) => {
    const found = env[name];
    if (found === undefined || found === '') {
      issues.push({ path, message: `environment variable ${name} is not set` });
      return '';
    }
    return found;
  });
}
