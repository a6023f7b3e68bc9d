import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { type z } from 'zod';
import { ConfigError, type ConfigIssue } from './config-error.js';
import { configSchema, type HeliosConfig } from './config.schema.js';
import { substituteEnv } from './env-substitution.js';

/** Environment variables that override a setting of `helios.yaml` (the configuration contract). */
const ENV_OVERRIDES = [
  { env: 'HOST', path: ['server', 'host'], kind: 'string' },
  { env: 'PORT', path: ['server', 'port'], kind: 'integer' },
  { env: 'DATABASE_URL', path: ['database', 'url'], kind: 'string' },
  { env: 'HELIOS_DATA_DIR', path: ['database', 'dataDir'], kind: 'string' },
  { env: 'DASHBOARD_PORT', path: ['dashboard', 'port'], kind: 'integer' },
  { env: 'LOG_LEVEL', path: ['log', 'level'], kind: 'string' },
  { env: 'HELIO_POLICY', path: ['governance', 'policy'], kind: 'string' },
] as const;

export interface LoadedConfig {
  readonly config: HeliosConfig;
  /** Where the file came from, or that defaults applied. */
  readonly source: string;
}

/**
 * Loads `helios.yaml` (path from HELIOS_CONFIG; defaults when no file is named and `./helios.yaml` is
 * absent), applies the environment overrides and validates the result. Throws ConfigError listing every
 * problem by path.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): LoadedConfig {
  const explicit = env.HELIOS_CONFIG;
  const path = resolve(cwd, explicit ?? 'helios.yaml');
  let text: string | undefined;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ENOENT';
    if (explicit !== undefined || !missing) {
      throw new ConfigError(path, [
        { path: 'HELIOS_CONFIG', message: `cannot read ${path}: ${describe(error)}` },
      ]);
    }
  }
  const source = text === undefined ? 'defaults' : path;
  return { config: parseConfig(text ?? '', env, source), source };
}

/** Parses YAML text, applies environment overrides, validates. Exported for tests and benchmarks. */
export function parseConfig(text: string, env: NodeJS.ProcessEnv = {}, source = 'helios.yaml'): HeliosConfig {
  const raw = parseYaml(text, source);
  const overridden = new Map<string, string>();
  for (const { env: name, path, kind } of ENV_OVERRIDES) {
    const value = env[name];
    if (value === undefined || value === '') continue;
    setPath(raw, path, kind === 'integer' && /^\d+$/.test(value) ? Number(value) : value);
    overridden.set(path.join('.'), name);
  }
  const unresolved = substituteEnv(raw, env);
  const result = configSchema.safeParse(raw);
  if (result.success && unresolved.length === 0) return result.data;
  // A setting whose variable is missing is reported once, as that, not also as the empty value left.
  const missing = new Set(unresolved.map((issue) => issue.path));
  const invalid = result.success
    ? []
    : result.error.issues.map((issue) => toIssue(issue, overridden)).filter((i) => !missing.has(i.path));
  throw new ConfigError(source, [...unresolved, ...invalid]);
}

function parseYaml(text: string, source: string): Record<string, unknown> {
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      source,
      doc.errors.map((e) => ({
        path: `line ${e.linePos?.[0]?.line ?? '?'}`,
        message: e.message.split('\n')[0] ?? '',
      })),
    );
  }
  const value: unknown = doc.toJS() ?? {};
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ConfigError(source, [{ path: '(root)', message: 'expected a mapping of settings' }]);
  }
  return value as Record<string, unknown>;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  let node = target;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    // A non-object here is reported by validation; overriding it would hide the file's mistake.
    if (next !== undefined && (typeof next !== 'object' || next === null || Array.isArray(next))) return;
    node[key] = next ?? {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
}

function toIssue(issue: z.core.$ZodIssue, overridden: ReadonlyMap<string, string>): ConfigIssue {
  const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
  const base = issue.path.map(String).join('.');
  if (keys.length > 0) {
    const where = keys.map((k) => (base ? `${base}.${k}` : k)).join(', ');
    return { path: where, message: `unknown setting${keys.length > 1 ? 's' : ''}` };
  }
  const envName = overridden.get(base);
  const path = envName ? `${envName} (environment, overrides ${base})` : base || '(root)';
  return { path, message: issue.message };
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
