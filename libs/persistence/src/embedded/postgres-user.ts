import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { serverEnvironment } from './server-environment.js';

const execFileAsync = promisify(execFile);

/** The credentials PostgreSQL runs with: none (ours) unless we are root, which PostgreSQL refuses. */
export interface RunAs {
  readonly uid?: number;
  readonly gid?: number;
}

export const SUPERUSER = 'postgres';

/** PostgreSQL refuses to run as root; as root we run it as the `postgres` system user (created if missing). */
export async function runAsUser(): Promise<RunAs> {
  if (process.getuid?.() !== 0) return {};
  const ids = async (): Promise<RunAs> => ({
    uid: Number((await execFileAsync('id', ['-u', SUPERUSER], { env: serverEnvironment() })).stdout.trim()),
    gid: Number((await execFileAsync('id', ['-g', SUPERUSER], { env: serverEnvironment() })).stdout.trim()),
  });
  try {
    return await ids();
  } catch {
    const env = serverEnvironment();
    await execFileAsync('groupadd', ['--system', SUPERUSER], { env }).catch(() => undefined);
    await execFileAsync('useradd', ['--system', '-g', SUPERUSER, '--no-create-home', SUPERUSER], { env });
    return ids();
  }
}

/**
 * Whether `runAs` can enter `dir` (search permission on it and every directory above). Asked of the
 * kernel by a shell running with exactly the credentials the server gets, so ACLs and groups count.
 */
export async function canEnter(dir: string, runAs: RunAs): Promise<boolean> {
  if (runAs.uid === undefined) return true;
  try {
    await execFileAsync('/bin/sh', ['-c', 'cd -- "$1"', 'sh', dir], {
      ...runAs,
      cwd: '/',
      env: serverEnvironment(),
    });
    return true;
  } catch {
    return false;
  }
}
