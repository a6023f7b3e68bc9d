/**
 * WorkspaceRoot: the confinement contract of every file tool and of filesystem memory. A requested path
 * is relative to the root; `..`, absolute paths and links leading outside are refused, and strict I/O
 * (the default, Linux only) keeps a symbolic link swapped in after that check from redirecting the
 * operation.
 */
import { closeSync, constants, openSync, readlinkSync, realpathSync, type Stats, statSync } from 'node:fs';
import { resolve as resolveAbsolute } from 'node:path';
import { canonicalise, RootSpelling } from './canonical.js';
import {
  checkMaxBytes,
  type WorkspaceReadOptions,
  type WalkEntry,
  type WorkspaceWalkOptions,
  type WorkspaceEntry,
  type WorkspaceIo,
  type WorkspaceStat,
  type WorkspaceWriteOptions,
} from './io-common.js';
import { lexicalSegments } from './lexical.js';
import { O_PATH, StrictIo } from './strict-io.js';
import { TrustedIo } from './trusted-io.js';
import { refusalFor, WorkspacePathError } from './workspace-error.js';

export interface WorkspaceRootOptions {
  /**
   * Other spellings of the same root directory (a bind mount of it, say), each canonicalised and
   * checked to be the root itself. A link inside the workspace may point through one; the path it
   * resolves to is returned in the root's canonical spelling.
   */
  readonly aliases?: readonly string[];
  /**
   * The explicit, portable opt-out of strict I/O. `resolve()` still refuses `..`, absolute paths and
   * links that lead outside *when it checks*, but operations then use plain path-based fs calls: a
   * concurrent writer that swaps a symbolic link into the path after it was authorised (or after a
   * walked entry was checked) can redirect the operation outside the root. Use it only when nothing
   * else writes to the workspace while the agent runs, or when every process that can write it may
   * also read everything a link in it could reach. Never a default.
   */
  readonly trusted?: boolean;
  /** @internal Tests only: the platform to check instead of the running one. */
  readonly platform?: { readonly os: string; readonly arch: string };
}

const STRICT_ARCHES: ReadonlySet<string> = new Set(['x64', 'arm64']);

export class WorkspaceRoot {
  /** The canonical (real, absolute) path of the root. */
  readonly root: string;
  /** The canonical spellings of the configured aliases. */
  readonly aliases: readonly string[];
  /** Whether this workspace opted out of strict I/O. */
  readonly trusted: boolean;
  private readonly spelling: RootSpelling;
  private readonly io: WorkspaceIo;
  private readonly windows: boolean;

  /**
   * @param root an existing directory; canonicalised here (a missing root is never created).
   * @throws WorkspacePathError `UnsupportedPlatform` in strict mode off Linux x64/arm64 or without
   *   `/proc/self/fd` (there is no weaker fallback), `NotFound`/`NotDirectory` for the root,
   *   `InvalidAlias` for an alias that is not the root directory.
   */
  constructor(root: string, options: WorkspaceRootOptions = {}) {
    this.trusted = options.trusted === true;
    const platform = options.platform ?? { os: process.platform, arch: process.arch };
    if (!this.trusted && (platform.os !== 'linux' || !STRICT_ARCHES.has(platform.arch))) {
      throw new WorkspacePathError(root, 'UnsupportedPlatform', `${platform.os}/${platform.arch}`);
    }
    this.windows = platform.os === 'win32';
    const [canonical, stats] = canonicalDirectory(root, root);
    this.root = canonical;
    this.aliases = (options.aliases ?? []).map((alias) => canonicalAlias(alias, stats));
    this.spelling = new RootSpelling(this.root, this.aliases);
    if (this.trusted) {
      this.io = new TrustedIo(this.spelling);
    } else {
      probeProcFd(this.root);
      this.io = new StrictIo(this.spelling);
    }
  }

  /**
   * The canonical absolute path of `relativePath` inside the root (which need not exist yet). The path
   * is taken literally; `..` segments, absolute paths, NUL bytes, blank paths, links leading outside,
   * dangling links and link loops are refused with a WorkspacePathError.
   */
  async resolve(relativePath: string): Promise<string> {
    const segments = lexicalSegments(relativePath, this.windows);
    return canonicalise(this.spelling, segments, relativePath);
  }

  /** `canonical` relative to the root, `/`-separated (`.` for the root itself). */
  relativize(canonical: string): string {
    const inside = this.spelling.toCanonical(canonical);
    if (inside === undefined) throw new WorkspacePathError(canonical, 'Outside');
    return this.spelling.segmentsOf(inside).join('/') || '.';
  }

  /** The bytes of a regular file, at most `maxBytes` of them (a longer file is refused `TooLarge`). */
  async readFile(path: string, options: WorkspaceReadOptions): Promise<Buffer> {
    checkMaxBytes(options.maxBytes);
    return this.io.readFile(await this.resolve(path), path, options.maxBytes);
  }

  /**
   * Writes a file, creating it (0600) and missing parent directories (0700); an existing regular file is
   * truncated (permissions kept) unless `exclusive`.
   */
  async writeFile(
    path: string,
    data: string | Uint8Array,
    options: WorkspaceWriteOptions = {},
  ): Promise<void> {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    await this.io.writeFile(await this.resolve(path), path, bytes, options.exclusive === true);
  }

  /** The directory's entries by name; links are reported as `Symlink`, never followed. */
  async readDir(path: string): Promise<WorkspaceEntry[]> {
    return this.io.readDir(await this.resolve(path), path);
  }

  /**
   * Every entry below a directory, depth first in name order; directory links are reported, never
   * followed. `descend` prunes directories (the entry itself is still reported).
   */
  async *walk(path: string, options: WorkspaceWalkOptions = {}): AsyncGenerator<WalkEntry> {
    const canonical = await this.resolve(path);
    yield* this.io.walk(canonical, path, options.descend ?? (() => true));
  }

  /**
   * The target text of the symbolic link `path` names (its parent is resolved, the link itself is not
   * followed): display metadata only, never a path to use. Refused `NotSymlink` for anything else.
   */
  async readLink(path: string): Promise<string> {
    const segments = lexicalSegments(path, this.windows);
    const name = segments.pop();
    if (name === undefined) throw new WorkspacePathError(path, 'NotSymlink');
    return this.io.readLink(await canonicalise(this.spelling, segments, path), name, path);
  }

  /**
   * Removes the regular file `path` names. Its parent is resolved; the entry itself is never followed,
   * so a symbolic link is refused (`Symlink`), as are directories and special files (`NotRegularFile`).
   */
  async deleteFile(path: string): Promise<void> {
    const segments = lexicalSegments(path, this.windows);
    const name = segments.pop();
    if (name === undefined) throw new WorkspacePathError(path, 'NotRegularFile', 'Directory');
    await this.io.deleteFile(await canonicalise(this.spelling, segments, path), name, path);
  }

  /** Metadata of the file or directory the path resolves to. */
  async stat(path: string): Promise<WorkspaceStat> {
    return this.io.stat(await this.resolve(path), path);
  }
}

function canonicalDirectory(path: string, requested: string): [string, Stats] {
  try {
    const canonical = realpathSync(resolveAbsolute(path));
    const stats = statSync(canonical);
    if (!stats.isDirectory()) throw new WorkspacePathError(requested, 'NotDirectory');
    return [canonical, stats];
  } catch (error) {
    throw refusalFor(requested, error, 'LinkLoop');
  }
}

function canonicalAlias(alias: string, root: Stats): string {
  const [canonical, stats] = canonicalDirectory(alias, alias);
  if (stats.dev !== root.dev || stats.ino !== root.ino) throw new WorkspacePathError(alias, 'InvalidAlias');
  return canonical;
}

/** Strict I/O names descriptors through /proc/self/fd; without it construction fails closed. */
function probeProcFd(root: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(root, O_PATH | constants.O_DIRECTORY);
    if (readlinkSync(`/proc/self/fd/${fd}`) !== root) throw new Error('descriptor path mismatch');
  } catch (error) {
    throw new WorkspacePathError(root, 'UnsupportedPlatform', '/proc/self/fd is unavailable', {
      cause: error,
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
