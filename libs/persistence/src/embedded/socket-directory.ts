import { chmod, chown, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { type RunAs } from './postgres-user.js';
import { assertTrustedDirectory, ourUid } from './trusted-directory.js';

const PREFIX = 'helios-pg-';

/**
 * The directory of the server's Unix socket, the only way in for the superuser: made 0700 under an
 * unguessable name (mkdtemp) and owned by the server's user, so only that user and root can connect.
 * Not in the data directory: a socket path must stay under ~100 bytes, a checkout path need not.
 */
export async function makeSocketDirectory(runAs: RunAs): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), PREFIX));
  if (runAs.uid !== undefined && runAs.gid !== undefined) await chown(dir, runAs.uid, runAs.gid);
  return dir;
}

/**
 * Before every launch: a tmp cleaner may have removed the directory while the server ran; if someone
 * else made one under its (visible) name meanwhile, we refuse it rather than listen there.
 */
export async function ensureSocketDirectory(dir: string, runAs: RunAs): Promise<void> {
  try {
    await mkdir(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return assertTrustedDirectory(dir, runAs.uid ?? ourUid(), 'socket directory');
  }
  await chmod(dir, 0o700);
  if (runAs.uid !== undefined && runAs.gid !== undefined) await chown(dir, runAs.uid, runAs.gid);
}

/**
 * The socket directory of a server whose owner crashed (named in its lock, once that server is
 * stopped): removed, if it is one of ours by name, so crashes do not pile them up in /tmp.
 */
export async function removeStaleSocketDirectory(dir: string): Promise<void> {
  if (dirname(dir) !== tmpdir() || !basename(dir).startsWith(PREFIX)) return;
  await rm(dir, { recursive: true, force: true });
}
