import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { EmbeddedPostgresError } from './errors.js';

const { O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_WRONLY } = constants;

export interface FileOwner {
  readonly uid?: number;
  readonly gid?: number;
}

/**
 * Creates `path` with `content`, mode 0600: never an existing file and never through a symlink planted
 * at that name (O_EXCL fails on both), so nobody can make us write into a file of their choosing.
 */
export async function createPrivateFile(path: string, content: string, owner: FileOwner = {}): Promise<void> {
  const handle = await open(path, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW, 0o600).catch(refuseSymlink(path));
  try {
    if (owner.uid !== undefined && owner.gid !== undefined) await handle.chown(owner.uid, owner.gid);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** Replaces `path` whole: a fresh private file under an unguessable name, renamed over it. */
export async function replacePrivateFile(
  path: string,
  content: string,
  owner: FileOwner = {},
): Promise<void> {
  const scratch = `${path}.new-${randomBytes(6).toString('hex')}`;
  try {
    await createPrivateFile(scratch, content, owner);
    await rename(scratch, path);
  } catch (error) {
    await rm(scratch, { force: true });
    throw error;
  }
}

/** Opens (creating it 0600) a file to append to; a symlink at its name is refused, not followed. */
export async function openPrivateAppend(path: string): Promise<FileHandle> {
  const handle = await open(path, O_CREAT | O_APPEND | O_WRONLY | O_NOFOLLOW, 0o600).catch(
    refuseSymlink(path),
  );
  // A log made by an earlier version may be world-readable.
  await handle.chmod(0o600).catch(() => undefined);
  return handle;
}

function refuseSymlink(path: string): (error: NodeJS.ErrnoException) => never {
  return (error) => {
    if (error.code !== 'ELOOP') throw error;
    throw new EmbeddedPostgresError(
      `${path} is a symbolic link, which we never write through; remove it (and find out who made it)`,
      { cause: error },
    );
  };
}
