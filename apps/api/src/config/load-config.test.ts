import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from './config-error.js';
import { loadConfig, parseConfig } from './load-config.js';

function issuesOf(fn: () => unknown): { path: string; message: string }[] {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return [...(error as ConfigError).issues];
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('applies the documented defaults to an empty file', () => {
    const config = parseConfig('');
    expect(config.server).toEqual({
      host: '127.0.0.1',
      port: 8080,
      shutdownGraceMs: 10_000,
      bodyLimitBytes: 1_048_576,
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_024,
    });
    expect(config.governance.adapterApi).toEqual({
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_024,
    });
    expect(config.database).toEqual({ dataDir: '.helios', poolSize: 10, connectTimeoutMs: 10_000 });
    expect(config.database.url).toBeUndefined();
    expect(config.dashboard.port).toBe(3000);
    expect(config.log.level).toBe('info');
  });

  it('reads values from YAML', () => {
    const config = parseConfig(
      'server:\n  port: 9000\n  host: 0.0.0.0\ndatabase:\n  dataDir: /var/lib/helios\n',
    );
    expect(config.server.port).toBe(9000);
    expect(config.server.host).toBe('0.0.0.0');
    expect(config.database.dataDir).toBe('/var/lib/helios');
  });

  it('lets the environment override the file', () => {
    const config = parseConfig('server:\n  port: 9000\n', {
      PORT: '9100',
      HOST: '::1',
      DATABASE_URL: 'postgres://u:p@db:5432/helios',
      HELIOS_DATA_DIR: '/tmp/x',
      DASHBOARD_PORT: '3100',
      LOG_LEVEL: 'debug',
      HELIO_POLICY: '/etc/helio.yaml',
    });
    expect(config.governance.policy).toBe('/etc/helio.yaml');
    expect(config.server).toMatchObject({ port: 9100, host: '::1' });
    expect(config.database).toMatchObject({ url: 'postgres://u:p@db:5432/helios', dataDir: '/tmp/x' });
    expect(config.dashboard.port).toBe(3100);
    expect(config.log.level).toBe('debug');
  });

  it('reports an unknown key by its full path', () => {
    expect(issuesOf(() => parseConfig('server:\n  prot: 1\n'))).toEqual([
      { path: 'server.prot', message: 'unknown setting' },
    ]);
    expect(issuesOf(() => parseConfig('sever: {}\n'))).toEqual([
      { path: 'sever', message: 'unknown setting' },
    ]);
  });

  it('reports every problem, not only the first', () => {
    const issues = issuesOf(() =>
      parseConfig('server:\n  port: "eighty"\n  shutdownGraceMs: -1\nlog:\n  level: loud\n'),
    );
    expect(issues.map((i) => i.path).sort()).toEqual(['log.level', 'server.port', 'server.shutdownGraceMs']);
    expect(issues.find((i) => i.path === 'server.port')?.message).toMatch(/expected number/);
  });

  it('reads connection limits for both listeners and refuses a headers timeout beyond the request timeout', () => {
    const config = parseConfig(
      'server:\n  maxConnections: 20\n  headersTimeoutMs: 1000\n  requestTimeoutMs: 2000\ngovernance:\n  adapterApi:\n    headersTimeoutMs: 500\n',
    );
    expect(config.server).toMatchObject({ maxConnections: 20, requestTimeoutMs: 2_000 });
    expect(config.governance.adapterApi).toMatchObject({ headersTimeoutMs: 500, maxConnections: 1_024 });
    expect(issuesOf(() => parseConfig('server:\n  headersTimeoutMs: 40000\n'))).toEqual([
      { path: 'server.headersTimeoutMs', message: 'must not exceed requestTimeoutMs' },
    ]);
    expect(issuesOf(() => parseConfig('governance:\n  adapterApi:\n    maxConnections: 0\n'))[0]?.path).toBe(
      'governance.adapterApi.maxConnections',
    );
    expect(issuesOf(() => parseConfig('governance:\n  adapterApi:\n    maxConection: 1\n'))[0]?.path).toBe(
      'governance.adapterApi.maxConection',
    );
  });

  it('checks a port at both edges', () => {
    expect(parseConfig('server:\n  port: 65535\n').server.port).toBe(65535);
    expect(parseConfig('server:\n  port: 0\n').server.port).toBe(0);
    expect(issuesOf(() => parseConfig('server:\n  port: 65536\n'))[0]?.path).toBe('server.port');
    expect(issuesOf(() => parseConfig('server:\n  port: -1\n'))[0]?.path).toBe('server.port');
  });

  it('names the environment variable when an override is wrong', () => {
    const [issue] = issuesOf(() => parseConfig('', { PORT: 'http' }));
    expect(issue?.path).toBe('PORT (environment, overrides server.port)');
    expect(issue?.message).toMatch(/expected number/);
  });

  it('rejects a DATABASE_URL that is not a PostgreSQL URL without echoing it', () => {
    for (const url of ['mysql://u:secretpw@h/db', 'not a url', 'postgres://']) {
      const [issue] = issuesOf(() => parseConfig('', { DATABASE_URL: url }));
      expect(issue?.path).toBe('DATABASE_URL (environment, overrides database.url)');
      expect(issue?.message).toMatch(/not a valid PostgreSQL URL/);
      expect(issue?.message).not.toContain('secretpw');
    }
    expect(parseConfig('', { DATABASE_URL: 'postgresql://h/db' }).database.url).toBe('postgresql://h/db');
  });

  it('reports YAML syntax errors with their line', () => {
    const [issue] = issuesOf(() => parseConfig('server:\n  port: [1\n'));
    expect(issue?.path).toMatch(/^line \d+$/);
  });

  it('rejects duplicate keys and a non-mapping document', () => {
    expect(issuesOf(() => parseConfig('server: {}\nserver: {}\n'))[0]?.message).toMatch(/unique|duplicate/i);
    expect(issuesOf(() => parseConfig('- a\n- b\n'))).toEqual([
      { path: '(root)', message: 'expected a mapping of settings' },
    ]);
  });
});

describe('loadConfig', () => {
  it('uses defaults when no file is named and helios.yaml is absent', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helios-config-'));
    expect(loadConfig({}, dir)).toMatchObject({ source: 'defaults', config: { server: { port: 8080 } } });
  });

  it('reads ./helios.yaml, or the file HELIOS_CONFIG names', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helios-config-'));
    await writeFile(join(dir, 'helios.yaml'), 'server:\n  port: 7001\n');
    await writeFile(join(dir, 'other.yaml'), 'server:\n  port: 7002\n');
    expect(loadConfig({}, dir).config.server.port).toBe(7001);
    expect(loadConfig({ HELIOS_CONFIG: 'other.yaml' }, dir).config.server.port).toBe(7002);
  });

  it('fails clearly when HELIOS_CONFIG names a missing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'helios-config-'));
    const [issue] = issuesOf(() => loadConfig({ HELIOS_CONFIG: 'missing.yaml' }, dir));
    expect(issue?.path).toBe('HELIOS_CONFIG');
    expect(issue?.message).toContain('missing.yaml');
  });
});

describe('auth:, agents: and sessions:', () => {
  const agent = (extra = '') =>
    `agents:\n  reader:\n    model: openai-compatible/llama3.1\n    preset: readOnly\n    workspace: ./work\n${extra}`;

  it('reads the issue example, substituting ${ENV} in tokens and API keys', () => {
    const config = parseConfig(
      'auth:\n  tokens:\n    - { token: "${HELIOS_TOKEN}", tenant: acme, subject: alice, roles: [admin] }\n' +
        agent(
          '    baseUrl: http://127.0.0.1:11434/v1\n    apiKey: ${OPENAI_API_KEY}\n' +
            '    systemPrompt: You read files for the user.\n' +
            '    permission: { mode: DEFAULT, allow: ["Read(**)"], ask: [], deny: [] }\n' +
            '    limits: { maxTurns: 20, maxBudgetMicroUsd: 500000, maxWallClockMs: 600000 }\n' +
            '    traceDetail: STANDARD\n    store: postgres\n',
        ),
      { HELIOS_TOKEN: 'tok-0123456789abcdef', OPENAI_API_KEY: 'sk-test-key' },
    );
    expect(config.auth?.tokens).toEqual([
      { token: 'tok-0123456789abcdef', tenant: 'acme', subject: 'alice', roles: ['admin'] },
    ]);
    expect(config.agents?.reader).toMatchObject({
      model: 'openai-compatible/llama3.1',
      apiKey: 'sk-test-key',
      preset: 'readOnly',
      workspace: './work',
      permission: { mode: 'DEFAULT', allow: ['Read(**)'], ask: [], deny: [] },
      limits: { maxTurns: 20, maxBudgetMicroUsd: 500_000n, maxWallClockMs: 600_000 },
      traceDetail: 'STANDARD',
      store: 'postgres',
    });
    expect(config.sessions).toEqual({
      maxRequestBytes: 262_144,
      maxConcurrentRequestsPerPrincipal: 32,
      maxConcurrentRequests: 512,
      maxSessionsPerPrincipal: 16,
      maxSessions: 256,
      retentionMs: 900_000,
      sweepIntervalMs: 30_000,
      heartbeatMs: 15_000,
      retainedEvents: 1_024,
      retainedEventBytes: 8_388_608,
    });
  });

  it('leaves auth and agents unset by default, and ${…} in other settings as text', () => {
    const config = parseConfig(`${agent('    systemPrompt: "costs ${PRICE}"\n')}`);
    expect(config.auth).toBeUndefined();
    expect(config.agents?.reader?.systemPrompt).toBe('costs ${PRICE}');
    expect(parseConfig('').agents).toBeUndefined();
  });

  it('names an unset variable by the setting, never echoing a value', () => {
    const issues = issuesOf(() =>
      parseConfig(
        'auth:\n  tokens:\n    - { token: "${NOPE}", tenant: t, subject: s }\n' +
          agent('    apiKey: ${ALSO_NOPE}\n'),
      ),
    );
    expect(issues).toEqual([
      { path: 'auth.tokens.0.token', message: 'environment variable NOPE is not set' },
      { path: 'agents.reader.apiKey', message: 'environment variable ALSO_NOPE is not set' },
    ]);
  });

  it('reports every agent and auth mistake by its path', () => {
    const issues = issuesOf(() =>
      parseConfig(
        'auth:\n  tokens:\n    - { token: short, tenant: t, subject: s, colour: red }\n' +
          '    - { token: same-token-0123456789, tenant: t, subject: s }\n' +
          '    - { token: same-token-0123456789, tenant: t, subject: s2 }\n' +
          '  jwt: { issuer: i, audience: a }\n' +
          'agents:\n  "bad name":\n    model: x/y\n  ok:\n    model: nomodel\n    preset: workspace\n' +
          '    permission: { mode: SOMETIMES, allow: ["Read("] }\n    limits: { maxTurns: 0 }\n    store: disk\n',
      ),
    );
    const paths = issues.map((i) => i.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'auth.tokens.0.token',
        'auth.tokens.0.colour',
        'auth.jwt',
        'agents.bad name',
        'agents.ok.model',
        'agents.ok.permission.mode',
        'agents.ok.permission.allow.0',
        'agents.ok.limits.maxTurns',
        'agents.ok.store',
      ]),
    );
    expect(issues.find((i) => i.path === 'auth.tokens.0.token')?.message).not.toContain('short');
    const duplicate = issuesOf(() =>
      parseConfig(
        'auth:\n  tokens:\n    - { token: same-token-0123456789, tenant: t, subject: s }\n' +
          '    - { token: same-token-0123456789, tenant: t, subject: s2 }\n',
      ),
    );
    expect(duplicate).toEqual([{ path: 'auth.tokens.1.token', message: 'the same token as tokens.0.token' }]);
    expect(issuesOf(() => parseConfig('agents:\n  a: { model: x/y, preset: workspace }\n'))).toEqual([
      { path: 'agents.a.workspace', message: 'required by preset workspace' },
    ]);
    expect(issuesOf(() => parseConfig('auth: {}\n'))[0]?.message).toMatch(/at least one of tokens, jwt/);
    expect(issuesOf(() => parseConfig('agents: {}\n'))[0]?.path).toBe('agents');
  });

  it('checks the runtime limits and keeps maxRequestBytes within the server body limit', () => {
    expect(parseConfig('sessions:\n  maxSessions: 1\n').sessions.maxSessions).toBe(1);
    expect(issuesOf(() => parseConfig('sessions:\n  maxSessions: 0\n'))[0]?.path).toBe(
      'sessions.maxSessions',
    );
    expect(issuesOf(() => parseConfig('sessions:\n  maxRequestBytes: 2000000\n'))).toEqual([
      { path: 'sessions.maxRequestBytes', message: 'must not exceed server.bodyLimitBytes' },
    ]);
  });
});
