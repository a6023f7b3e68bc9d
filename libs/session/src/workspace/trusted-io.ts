/**
 * Trusted I/O: plain, portable fs calls on the path `resolve()` authorised. No descriptor confinement:
 * a concurrent writer that swaps in a symbolic link after the check can redirect an operation. Still
 * refuses to read anything but a regular file, never follows directory links in walks, and creates
 * new files 0600 and directories 0700.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, readlink, unlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type RootSpelling } from './canonical.js';
import {
  entryType,
  readWithinBudget,
  sortedEntries,
  toStat,
  type WalkEntry,
  walkPath,
  type WorkspaceEntry,
  type WorkspaceIo,
  type WorkspaceStat,
} from './io-common.js';
import { notSymlink, refusalFor, WorkspacePathError } from './workspace-error.js';

// O_NONBLOCK keeps a FIFO from blocking the open (it is then refused); Windows has no such flag.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

export class TrustedIo implements WorkspaceIo {
  constructor(private readonly spelling: RootSpelling) {}

  async readFile(canonical: string, requested: string, maxBytes: number): Promise<Buffer> {
    const handle = await open(canonical, READ_FLAGS).catch((error: unknown) => {
      throw refusalFor(requested, error, 'LinkLoop');
    });
    try {
      const stats = await handle.stat();
      if (!stats.isFile()) throw new WorkspacePathError(requested, 'NotRegularFile', entryType(stats));
      return await readWithinBudget(handle, maxBytes, requested);
    } finally {
      await handle.close();
    }
  }

  async writeFile(canonical: string, requested: string, data: Uint8Array, exclusive: boolean): Promise<void> {
    if (canonical === this.spelling.root) throw new WorkspacePathError(requested, 'NotRegularFile');
    try {
      await mkdir(dirname(canonical), { recursive: true, mode: 0o700 });
      await writeFile(canonical, data, { mode: 0o600, flag: exclusive ? 'wx' : 'w' });
    } catch (error) {
      throw refusalFor(requested, error, 'LinkLoop');
    }
  }

  async readDir(canonical: string, requested: string): Promise<WorkspaceEntry[]> {
    try {
      return sortedEntries(await readdir(canonical, { withFileTypes: true }));
    } catch (error) {
      throw refusalFor(requested, error, 'LinkLoop');
    }
  }

  async *walk(
    canonical: string,
    requested: string,
    descend: (entry: WalkEntry) => boolean,
  ): AsyncGenerator<WalkEntry> {
    const prefix = this.spelling.segmentsOf(canonical).join('/');
    for (const entry of await this.readDir(canonical, requested)) {
      const walked = { path: walkPath(prefix, entry.name), type: entry.type };
      yield walked;
      // readdir reports a link as a link, so a directory link is never descended into.
      if (entry.type === 'Directory' && descend(walked)) {
        yield* this.walk(join(canonical, entry.name), walked.path, descend);
      }
    }
  }

  async stat(canonical: string, requested: string): Promise<WorkspaceStat> {
    try {
      return toStat(await lstat(canonical));
    } catch (error) {
      throw refusalFor(requested, error, 'LinkLoop');
    }
  }

  async readLink(parent: string, name: string, requested: string): Promise<string> {
    try {
      return await readlink(join(parent, name)).catch(notSymlink(requested));
    } catch (error) {
      throw refusalFor(requested, error, 'LinkLoop');
    }
  }

  async deleteFile(parent: string, name: string, requested: string): Promise<void> {
    const path = join(parent, name);
    try {
      const stats = await lstat(path);
      if (stats.isSymbolicLink()) throw new WorkspacePathError(requested, 'Symlink');
      if (!stats.isFile()) throw new WorkspacePathError(requested, 'NotRegularFile', entryType(stats));
      await unlink(path);
    } catch (error) {
      throw refusalFor(requested, error, 'LinkLoop');
    }
  }
}
