import { chmod, lstat, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { EmbeddedPostgresError } from './errors.js';

/**
 * Whether a directory can hold what we put in it: a directory (not a symlink), owned by `uid`, that
 * neither its group nor other users can write to. Anyone else who could write there could plant
 * symlinks or files (a password, a cluster) before we look; we refuse it and say what to fix.
 */
export async function assertTrustedDirectory(dir: string, uid: number, what: string): Promise<void> {
  const info = await lstat(dir);
  if (!info.isDirectory()) {
    throw new EmbeddedPostgresError(
      `the ${what} ${dir} is not a directory; remove it or choose another path`,
    );
  }
  if (info.uid !== uid) {
    throw new EmbeddedPostgresError(
      `the ${what} ${dir} is owned by uid ${info.uid}, not by uid ${uid} which runs the embedded PostgreSQL there; ` +
        `another user may have prepared it: remove it (or, if its contents are yours, chown ${uid} ${dir}) or use another HELIOS_DATA_DIR`,
    );
  }
  if ((info.mode & 0o022) !== 0) {
    throw new EmbeddedPostgresError(
      `the ${what} ${dir} is writable by other users (mode ${(info.mode & 0o7777).toString(8).padStart(4, '0')}); ` +
        `chmod go-w ${dir} (it should be 0700) after checking that nobody planted files in it, or use another HELIOS_DATA_DIR`,
    );
  }
}

/**
 * Makes `dir` with exactly `mode` (whatever the umask), its parents as usual; a directory that already
 * exists must be a trusted one of ours and keeps its mode.
 */
export async function makeTrustedDirectory(dir: string, mode: number, what: string): Promise<void> {
  try {
    await mkdir(dir, { mode });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return assertTrustedDirectory(dir, ourUid(), what);
    if (code !== 'ENOENT') throw error;
    await mkdir(dirname(dir), { recursive: true });
    return makeTrustedDirectory(dir, mode, what);
  }
  await chmod(dir, mode);
}

export function ourUid(): number {
  return process.getuid?.() ?? 0;
}
