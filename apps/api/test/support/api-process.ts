import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';

export const apiMain = fileURLToPath(new URL('../../dist/main.js', import.meta.url));
export const migrateCli = fileURLToPath(new URL('../../dist/cli/migrate.js', import.meta.url));

export interface ProcessResult {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** The environment of a spawned API: ours without DATABASE_URL/HELIOS_* unless the test sets them. */
export function childEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of ['DATABASE_URL', 'HELIOS_CONFIG', 'HELIOS_DATA_DIR', 'PORT', 'HOST']) delete env[key];
  return { ...env, LOG_LEVEL: 'warn', ...extra };
}

/** Runs a script of the built API to completion (bounded), collecting its output. */
export function runNode(
  script: string,
  args: string[],
  env: Record<string, string>,
  timeoutMs = 60_000,
  cwd?: string,
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: childEnv(env),
      stdio: ['ignore', 'pipe', 'pipe'],
      cwd,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not exit within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** A running API process; `url` is known once it answered /healthz. */
export interface ApiProcess {
  readonly child: ChildProcess;
  readonly url: string;
  output(): string;
  /** Resolves with the exit result once the process has ended. */
  readonly exited: Promise<ProcessResult>;
}

/** Where and as whom the API runs: another build (`script`), working directory, user than ours. */
export interface StartApiOptions {
  readonly script?: string;
  readonly cwd?: string;
  readonly uid?: number;
  readonly gid?: number;
}

export async function startApi(
  port: number,
  env: Record<string, string>,
  timeoutMs = 60_000,
  options: StartApiOptions = {},
): Promise<ApiProcess> {
  const child = spawn(process.execPath, [options.script ?? apiMain], {
    env: childEnv({ HOST: '127.0.0.1', PORT: String(port), ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
    cwd: options.cwd,
    uid: options.uid,
    gid: options.gid,
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<ProcessResult>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  let done = false;
  void exited.then(() => (done = true));
  while (Date.now() < deadline && !done) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return { child, url, output: () => stdout + stderr, exited };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  child.kill('SIGKILL');
  throw new Error(`API did not become ready on ${url}: ${stdout}${stderr}`);
}

/** Resolves once `url` answers 2xx (polled every 100 ms); throws after `timeoutMs`. */
export async function waitForUrl(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}
