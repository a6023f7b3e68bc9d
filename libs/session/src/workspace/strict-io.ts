/**
 * Strict I/O (Linux): every operation descends from a verified descriptor of the root, one component
 * at a time, never following a symbolic link, through the kernel's `/proc/self/fd/<fd>/<name>` (the
 * equivalent of `openat`/`mkdirat` on a pinned directory). The leaf is pinned with `O_PATH` (so a FIFO
 * or device is never opened for I/O), checked (regular file, inside the root by `/proc/self/fd`,
 * same inode as the authorised path), and only then reopened through its own descriptor.
 */
import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, mkdir, open, readdir, readlink, unlink } from 'node:fs/promises';
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
import { errnoOf, notSymlink, refusalFor, WorkspacePathError } from './workspace-error.js';

/** Linux's O_PATH (the same on x64 and arm64); Node does not export it. */
export const O_PATH = 0o10000000;
const { O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK, O_NOCTTY, O_RDONLY, O_WRONLY, O_CREAT, O_EXCL } = constants;
const PIN = O_PATH | O_NOFOLLOW;
const REOPEN = O_NONBLOCK | O_NOCTTY;
const CREATE = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | REOPEN;

/** The kernel's name for an open descriptor, optionally with one component below it. */
export function fdPath(handle: FileHandle, name?: string): string {
  return name === undefined ? `/proc/self/fd/${handle.fd}` : `/proc/self/fd/${handle.fd}/${name}`;
}

async function closeQuietly(handle: FileHandle | undefined): Promise<void> {
  await handle?.close().catch(() => undefined);
}

/** Runs an fs call, turning its failure into a WorkspacePathError naming `requested`. */
async function fsCall<T>(requested: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw refusalFor(requested, error);
  }
}

/** Runs `check` on a fresh handle, closing the handle if the check fails. */
async function closeOnFailure<T>(handle: FileHandle, check: () => Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    await closeQuietly(handle);
    throw error;
  }
}

/** Runs `use` with a handle, closing it afterwards whatever happens. */
async function using<T>(handle: FileHandle, use: (handle: FileHandle) => Promise<T>): Promise<T> {
  try {
    return await use(handle);
  } finally {
    await closeQuietly(handle);
  }
}

export class StrictIo implements WorkspaceIo {
  constructor(private readonly spelling: RootSpelling) {}

  async readFile(canonical: string, requested: string, maxBytes: number): Promise<Buffer> {
    const pin = await this.pinLeaf(canonical, requested);
    return using(pin, async () => {
      const pinned = await this.checkRegular(pin, requested);
      await this.checkIdentity(canonical, pinned, requested);
      const reader = await this.reopen(pin, pinned, O_RDONLY, requested);
      return using(reader, () => readWithinBudget(reader, maxBytes, requested));
    });
  }

  async writeFile(canonical: string, requested: string, data: Uint8Array, exclusive: boolean): Promise<void> {
    const segments = this.spelling.segmentsOf(canonical);
    const leaf = segments.pop();
    if (leaf === undefined) throw new WorkspacePathError(requested, 'NotRegularFile');
    const dir = await this.pinDirectory(segments, requested, true);
    const writer = await using(dir, () => this.openForWrite(dir, leaf, requested, exclusive));
    await using(writer, async () => {
      await writer.writeFile(data);
    });
  }

  async readDir(canonical: string, requested: string): Promise<WorkspaceEntry[]> {
    const dir = await this.pinDirectory(this.spelling.segmentsOf(canonical), requested, false);
    return using(dir, () => this.entries(dir, requested));
  }

  async *walk(
    canonical: string,
    requested: string,
    descend: (entry: WalkEntry) => boolean,
  ): AsyncGenerator<WalkEntry> {
    const dir = await this.pinDirectory(this.spelling.segmentsOf(canonical), requested, false);
    try {
      yield* this.walkPinned(dir, walkPath('', this.spelling.segmentsOf(canonical).join('/')), descend);
    } finally {
      await closeQuietly(dir);
    }
  }

  async stat(canonical: string, requested: string): Promise<WorkspaceStat> {
    const pin = await this.pinLeaf(canonical, requested);
    return using(pin, async () => {
      const stats = await pin.stat();
      await this.checkInside(pin, requested);
      return toStat(stats);
    });
  }

  async readLink(parent: string, name: string, requested: string): Promise<string> {
    const dir = await this.pinDirectory(this.spelling.segmentsOf(parent), requested, false);
    // readlink on `/proc/self/fd/<dir>/<name>` reads the link itself (its last component is not followed).
    return using(dir, () =>
      fsCall(requested, () => readlink(fdPath(dir, name)).catch(notSymlink(requested))),
    );
  }

  async deleteFile(parent: string, name: string, requested: string): Promise<void> {
    const dir = await this.pinDirectory(this.spelling.segmentsOf(parent), requested, false);
    await using(dir, async () => {
      const pin = await fsCall(requested, () => open(fdPath(dir, name), PIN));
      await using(pin, () => this.checkRegular(pin, requested));
      // unlinkat on the pinned directory: the entry is removed, never followed. An entry swapped in
      // after the check is still an entry of this verified directory inside the root.
      await fsCall(requested, () => unlink(fdPath(dir, name)));
    });
  }

  private async *walkPinned(
    dir: FileHandle,
    prefix: string,
    descend: (entry: WalkEntry) => boolean,
  ): AsyncGenerator<WalkEntry> {
    for (const entry of await this.entries(dir, prefix === '' ? '.' : prefix)) {
      const walked = { path: walkPath(prefix, entry.name), type: entry.type };
      yield walked;
      if (entry.type !== 'Directory' || !descend(walked)) continue;
      const child = await this.pinChild(dir, entry.name, walked.path, false).catch((error: unknown) => {
        // Listed as a directory but swapped or removed since: skip it, never follow it.
        if (
          error instanceof WorkspacePathError &&
          error.reason !== 'Outside' &&
          error.reason !== 'IoFailed'
        ) {
          return undefined;
        }
        throw error;
      });
      if (child === undefined) continue;
      try {
        yield* this.walkPinned(child, walked.path, descend);
      } finally {
        await closeQuietly(child);
      }
    }
  }

  private async entries(dir: FileHandle, requested: string): Promise<WorkspaceEntry[]> {
    await this.checkInside(dir, requested);
    return sortedEntries(await fsCall(requested, () => readdir(fdPath(dir), { withFileTypes: true })));
  }

  /** A verified `O_PATH` descriptor of the root directory. */
  private async pinRoot(requested: string): Promise<FileHandle> {
    const root = await fsCall(requested, () => open(this.spelling.root, PIN | O_DIRECTORY));
    return closeOnFailure(root, async () => {
      await this.checkInside(root, requested);
      return root;
    });
  }

  /** Descends `segments` from the root without following links, creating missing ones (0700) if asked. */
  private async pinDirectory(
    segments: readonly string[],
    requested: string,
    create: boolean,
  ): Promise<FileHandle> {
    let dir = await this.pinRoot(requested);
    try {
      for (const name of segments) {
        const child = await this.pinChild(dir, name, requested, create);
        await closeQuietly(dir);
        dir = child;
      }
      return dir;
    } catch (error) {
      await closeQuietly(dir);
      throw error;
    }
  }

  /** One no-follow step to a child directory, verified to be a directory inside the root. */
  private async pinChild(
    dir: FileHandle,
    name: string,
    requested: string,
    create: boolean,
  ): Promise<FileHandle> {
    let child: FileHandle;
    try {
      child = await open(fdPath(dir, name), PIN);
    } catch (error) {
      if (!create || errnoOf(error) !== 'ENOENT') throw refusalFor(requested, error);
      await mkdir(fdPath(dir, name), 0o700).catch((mkdirError: unknown) => {
        if (errnoOf(mkdirError) !== 'EEXIST') throw refusalFor(requested, mkdirError);
      });
      return this.pinChild(dir, name, requested, false);
    }
    return closeOnFailure(child, async () => {
      const stats = await child.stat();
      if (stats.isSymbolicLink()) throw new WorkspacePathError(requested, 'Symlink');
      if (!stats.isDirectory()) throw new WorkspacePathError(requested, 'NotDirectory');
      await this.checkInside(child, requested);
      return child;
    });
  }

  /** An `O_PATH` descriptor of the path's leaf itself (a link is pinned as the link). */
  private async pinLeaf(canonical: string, requested: string): Promise<FileHandle> {
    const segments = this.spelling.segmentsOf(canonical);
    const leaf = segments.pop();
    if (leaf === undefined) return this.pinRoot(requested);
    const dir = await this.pinDirectory(segments, requested, false);
    return using(dir, () => fsCall(requested, () => open(fdPath(dir, leaf), PIN)));
  }

  /** The pinned leaf's metadata, when it is a regular file inside the root. */
  private async checkRegular(pin: FileHandle, requested: string): Promise<Stats> {
    const stats = await pin.stat();
    if (stats.isSymbolicLink()) throw new WorkspacePathError(requested, 'Symlink');
    if (!stats.isFile()) throw new WorkspacePathError(requested, 'NotRegularFile', entryType(stats));
    await this.checkInside(pin, requested);
    return stats;
  }

  /** The kernel's own path of the descriptor must be the root or inside it (or an alias of it). */
  private async checkInside(handle: FileHandle, requested: string): Promise<void> {
    const where = await fsCall(requested, () => readlink(fdPath(handle)));
    if (this.spelling.toCanonical(where) === undefined) throw new WorkspacePathError(requested, 'Outside');
  }

  /** The authorised path must still name the pinned inode (no swap between the check and the pin). */
  private async checkIdentity(canonical: string, pinned: Stats, requested: string): Promise<void> {
    const now = await fsCall(requested, () => lstat(canonical));
    if (!sameInode(now, pinned)) throw new WorkspacePathError(requested, 'Moved');
  }

  /** Reopens a pinned regular file for I/O through its own descriptor (no path lookup can intervene). */
  private async reopen(
    pin: FileHandle,
    pinned: Stats,
    flags: number,
    requested: string,
  ): Promise<FileHandle> {
    const handle = await fsCall(requested, () => open(fdPath(pin), flags | REOPEN));
    return closeOnFailure(handle, async () => {
      if (!sameInode(await handle.stat(), pinned)) throw new WorkspacePathError(requested, 'Moved');
      return handle;
    });
  }

  /** A new file (0600, exclusive, no-follow) or, unless `exclusive`, the existing regular file truncated. */
  private async openForWrite(
    dir: FileHandle,
    leaf: string,
    requested: string,
    exclusive: boolean,
  ): Promise<FileHandle> {
    try {
      const created = await open(fdPath(dir, leaf), CREATE, 0o600);
      return await closeOnFailure(created, async () => {
        await this.checkInside(created, requested);
        return created;
      });
    } catch (error) {
      if (exclusive || errnoOf(error) !== 'EEXIST') throw refusalFor(requested, error);
    }
    const pin = await fsCall(requested, () => open(fdPath(dir, leaf), PIN));
    const writer = await using(pin, async () => {
      const pinned = await this.checkRegular(pin, requested);
      return this.reopen(pin, pinned, O_WRONLY, requested);
    });
    return closeOnFailure(writer, async () => {
      await fsCall(requested, () => writer.truncate(0));
      return writer;
    });
  }
}

function sameInode(a: Stats, b: Stats): boolean {
  return a.dev === b.dev && a.ino === b.ino;
}
