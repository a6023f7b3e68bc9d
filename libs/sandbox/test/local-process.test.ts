/**
 * LocalProcessExecutionProvider (BASH, no sandbox): a fresh directory per call, a cleared environment
 * plus an allow-list, output caps and redaction, and a timeout that kills everything the script
 * started — with bubblewrap's pid namespace, setsid daemons included.
 */
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { InvalidArgumentError, SecretRegistry, SessionContext } from '@helios/core';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_STREAM_CHARS } from '../src/child/protocol.js';
import { type LocalProcessOptions } from '../src/local/local-process-config.js';
import { LocalProcessExecutionProvider } from '../src/local/local-process-execution-provider.js';

const secrets = new SecretRegistry();
secrets.register('DB_PASSWORD', 'pw-0123456789abcd');
const session = SessionContext.create('bash-session', new AbortController().signal, secrets);
const provider = new LocalProcessExecutionProvider({
  variables: { GREETING: 'hello' },
  allowedEnvironment: ['LANG', 'HELIOS_TEST_ALLOWED'],
});
afterAll(() => provider.close());

const bash = (
  script: string,
  options: { timeoutMs?: number; signal?: AbortSignal; on?: LocalProcessExecutionProvider } = {},
) =>
  (options.on ?? provider).execute(
    session,
    { runtime: 'BASH', script, ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }) },
    options.signal ?? new AbortController().signal,
  );

/** Live (not zombie) processes whose command line holds `tag`. */
function processesWith(tag: string): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        return (
          readFileSync(`/proc/${pid}/cmdline`, 'latin1').startsWith(`sleep\0${tag}`) &&
          !/\) [ZX] /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'))
        );
      } catch {
        return false;
      }
    })
    .map(Number);
}

describe('a BASH call', () => {
  it('runs in a fresh private directory, with only PATH, HOME and the allowed environment', async () => {
    process.env['HELIOS_TEST_ALLOWED'] = 'yes';
    process.env['HELIOS_TEST_SECRET_ENV'] = 'not-for-the-script';
    const result = await bash('pwd; stat -c %a .; env | sort; echo err >&2; exit 3');
    const [dir, mode, ...env] = result.stdout.trim().split('\n');
    expect(dir).toMatch(/\/helios-bash-/);
    expect(mode).toBe('700');
    expect(
      env.filter(
        (line) =>
          !line.startsWith('LANG=') &&
          !line.startsWith('HELIOS_EXECUTE=') && // the reaper's marker, when there is no pid namespace
          !line.startsWith('_=') &&
          !line.startsWith('PWD=') &&
          !line.startsWith('SHLVL='),
      ),
    ).toEqual([
      'GREETING=hello',
      `HELIOS_TEST_ALLOWED=yes`,
      `HOME=${dir}`,
      'PATH=/usr/local/bin:/usr/bin:/bin',
    ]);
    expect(result).toMatchObject({ exitCode: 3, stderr: 'err\n', timedOut: false });
    expect((await bash('pwd')).stdout).not.toBe(`${dir}\n`);
    delete process.env['HELIOS_TEST_SECRET_ENV'];
  });

  it('caps each stream and redacts, a cut secret dropped', async () => {
    const result = await bash(
      `head -c ${MAX_STREAM_CHARS - 5} /dev/zero | tr '\\0' x; printf 'pw-0123456789abcd'; echo pw-0123456789abcd >&2`,
    );
    expect(result.stdout).toBe(
      `${'x'.repeat(MAX_STREAM_CHARS - 5)}\n[output truncated: 17 more chars discarded]`,
    );
    expect(result.stderr).toBe('<redacted:DB_PASSWORD>\n');
    expect(result.secretRedactionCounts.get('DB_PASSWORD')).toBe(1);
  });

  it('is killed at its timeout with everything it started', async () => {
    const tag = `31${Math.floor(Math.random() * 1e6)}.5`;
    const started = Date.now();
    const result = await bash(`sleep ${tag} & setsid sleep ${tag} & sleep ${tag}`, { timeoutMs: 300 });
    expect(result).toMatchObject({
      exitCode: 124,
      timedOut: true,
      stderr: expect.stringContaining('[timed out after 300 ms') as unknown,
    });
    expect(Date.now() - started).toBeLessThan(3_000);
    await expect.poll(() => processesWith(tag)).toEqual([]);
  });

  it('without a pid namespace, still ends a setsid daemon the script left behind (the /proc reaper)', async () => {
    const direct = new LocalProcessExecutionProvider({ pidNamespace: 'off' });
    const tag = `32${Math.floor(Math.random() * 1e6)}.5`;
    const result = await bash(`setsid sleep ${tag} </dev/null >/dev/null 2>&1 & echo started`, {
      on: direct,
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'started\n' });
    await expect.poll(() => processesWith(tag)).toEqual([]);
    await direct.close();
  });

  it('gets its args as "$1"…, the request environment over the allow-list, and its stdin, then end of input', async () => {
    const call = (extra: object) =>
      provider.execute(session, { runtime: 'BASH', script: SCRIPT, ...extra }, new AbortController().signal);
    const SCRIPT =
      'printf "%s|" "$0" "$@"; echo; echo "$GREETING ${EXTRA-unset}"; cat; read -r more || echo eof';
    expect(
      await call({
        args: ['one', 'two words', ''],
        environment: { GREETING: 'hi', EXTRA: 'x' },
        stdin: 'in1\nin2\n',
      }),
    ).toMatchObject({ exitCode: 0, stdout: 'bash|one|two words||\nhi x\nin1\nin2\neof\n' });
    expect(await call({})).toMatchObject({ exitCode: 0, stdout: 'bash|\nhello unset\neof\n' });
    const big = 'z'.repeat(300_000); // more than a pipe holds, to a script that never reads it
    expect(await call({ stdin: big, args: [] })).toMatchObject({ exitCode: 0 });
  });

  it('refuses malformed inputs before running anything', async () => {
    const refused = [
      [{ args: ['a\0b'] }, 'args[0] must not contain NUL'],
      [{ environment: { 'NOT-A-NAME': 'x' } }, 'is not a valid name'],
      [{ environment: { A: 'x\0' } }, 'environment.A must not contain NUL'],
      [{ stdin: 5 }, 'stdin must be a string'],
      [{ workingDirectory: '' }, 'workingDirectory must be a non-empty string'],
    ] as const;
    for (const [extra, message] of refused) {
      const result = await provider.execute(
        session,
        { runtime: 'BASH', script: 'echo ran', ...(extra as object) },
        new AbortController().signal,
      );
      expect(result).toMatchObject({
        exitCode: -1,
        stdout: '',
        stderr: expect.stringContaining(message) as unknown,
      });
    }
  });

  it('is killed when cancelled, and when its session ends', async () => {
    const controller = new AbortController();
    const cancelled = bash('sleep 30', { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    expect(await cancelled).toMatchObject({
      exitCode: 130,
      stderr: '[cancelled; everything it started was killed]\n',
    });
    const ending = bash('sleep 30');
    setTimeout(() => provider.onSessionEnd(session), 100);
    expect((await ending).exitCode).toBe(130);
  });

  it('reports a script killed by a signal as 128 + its number', async () => {
    expect((await bash('kill -TERM $$')).exitCode).toBe(143); // in a pid namespace, bubblewrap reports it so
    const direct = new LocalProcessExecutionProvider({ pidNamespace: 'off' });
    expect(await bash('kill -TERM $$', { on: direct })).toMatchObject({
      exitCode: 143,
      stderr: '[killed by SIGTERM]\n',
    });
    expect(await bash('kill -USR1 $$', { on: direct })).toMatchObject({
      exitCode: 138,
      stderr: '[killed by SIGUSR1]\n',
    });
    await direct.close();
  });
});

describe('the provider', () => {
  it('says it is no sandbox, and refuses other runtimes, bad timeouts and calls over its maximum', async () => {
    expect(provider.describe()).toContain('NOT a sandbox');
    expect(
      await provider.execute(session, { runtime: 'JAVASCRIPT', script: '1' }, new AbortController().signal),
    ).toMatchObject({ exitCode: -1 });
    expect(await bash('true', { timeoutMs: 0 })).toMatchObject({ exitCode: -1 });
    const one = new LocalProcessExecutionProvider({ maxConcurrent: 1, pidNamespace: 'off' });
    expect(one.usesPidNamespace).toBe(false);
    expect(one.describe()).toContain('found through /proc');
    const first = bash('sleep 0.3; echo done', { on: one });
    expect(await bash('true', { on: one })).toMatchObject({
      exitCode: -1,
      stderr: expect.stringContaining('already running') as unknown,
    });
    expect((await first).stdout).toBe('done\n');
    expect(one.onSessionStart()).toEqual({ type: 'Accept' });
    const slow = bash('sleep 30', { on: one });
    await new Promise((resolve) => setTimeout(resolve, 100));
    await one.close();
    expect((await slow).exitCode).toBe(130);
    expect(one.onSessionStart()).toMatchObject({ type: 'Refuse' });
    expect(await bash('true', { on: one })).toMatchObject({ exitCode: -1, stderr: 'the provider is closed' });
  });

  it('refuses settings it cannot honour', () => {
    const refused: LocalProcessOptions[] = [
      { path: 'bin' },
      { allowedEnvironment: ['PATH'] },
      { variables: { 'A-B': 'x' } },
      { variables: { A: 'x\0' } },
      { defaultTimeoutMs: 10, maxTimeoutMs: 5 },
      { maxConcurrent: 0 },
      { pidNamespace: 'maybe' as never },
    ];
    for (const options of refused) {
      expect(() => new LocalProcessExecutionProvider(options)).toThrow(InvalidArgumentError);
    }
  });
});

describe('a working directory', () => {
  const allowed = realpathSync(mkdtempSync(join(tmpdir(), 'bash-allowed-')));
  const outside = realpathSync(mkdtempSync(join(tmpdir(), 'bash-outside-')));
  mkdirSync(join(allowed, 'sub'));
  symlinkSync(outside, join(allowed, 'escape'));
  const scoped = new LocalProcessExecutionProvider({ workingDirectories: [allowed] });
  afterAll(async () => {
    await scoped.close();
    for (const dir of [allowed, outside]) rmSync(dir, { recursive: true, force: true });
  });
  const pwd = (workingDirectory: string, on = scoped) =>
    on.execute(session, { runtime: 'BASH', script: 'pwd', workingDirectory }, new AbortController().signal);

  it('is used when it is an allowed directory or inside one', async () => {
    expect(await pwd(allowed)).toMatchObject({ exitCode: 0, stdout: `${allowed}\n`, stderr: '' });
    expect(await pwd(join(allowed, 'sub'))).toMatchObject({ stdout: `${allowed}/sub\n`, stderr: '' });
    expect(scoped.describe()).toContain(`workingDirectory may name ${allowed}`);
  });

  it('is not used otherwise: the call runs in its fresh directory and says why', async () => {
    const cases = [
      [outside, `it is not inside an allowed directory: ${allowed}`],
      [join(allowed, 'escape'), `it is not inside an allowed directory: ${allowed}`],
      ['sub', 'it is not an absolute path'],
      [join(allowed, 'missing'), 'it does not exist'],
      [join(allowed, '..', basename(allowed), 'sub', '..', 'sub'), ''],
    ] as const;
    for (const [requested, why] of cases) {
      const result = await pwd(requested);
      if (why === '') {
        expect(result.stdout).toBe(`${allowed}/sub\n`);
        continue;
      }
      expect(result.stdout).toMatch(/\/helios-bash-/);
      expect(result.stderr).toBe(
        `[workingDirectory ${requested} was not used (${why}); the script ran in a fresh temporary directory]\n`,
      );
    }
    writeFileSync(join(allowed, 'file'), '');
    expect((await pwd(join(allowed, 'file'))).stderr).toContain('(it is not a directory)');
    expect((await pwd(allowed, provider)).stderr).toContain(
      '(this deployment allows no working directories)',
    );
    expect(provider.describe()).toContain('workingDirectory is not available here');
  });

  it('must be configured as absolute paths', () => {
    expect(() => new LocalProcessExecutionProvider({ workingDirectories: ['relative'] })).toThrow(
      InvalidArgumentError,
    );
  });
});
