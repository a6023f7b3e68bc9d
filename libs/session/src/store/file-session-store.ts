/**
 * A SessionStore of JSON-lines files: `<dir>/<sessionId>.jsonl`, one entry per line, 0600 in a 0700
 * directory. Each append is one write of whole lines, fsync'd before it returns.
 *
 * A crash mid-append can leave the last line torn (no newline). Loading ignores such a tail and the
 * next append cuts it off before writing, so history is never silently corrupted; a complete line that
 * does not parse is damage, not a crash, and loading refuses it (SessionStoreCorruptError). A batch cut
 * by a crash keeps its whole lines: a prefix of what the writer appended, never a mix.
 *
 * The version is the byte length of the lines read back. An append re-checks it under a lock file: a
 * file grown by whole lines since means another writer, and the append is refused (SessionConflict).
 */
import { type FileHandle, mkdir, open, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { requireSessionId } from '../session-id.js';
import { entryToWire, readEntry } from './entry-wire.js';
import { withFileLock } from './file-lock.js';
import {
  SessionConflictError,
  type SessionStore,
  SessionStoreCorruptError,
  type StoredEntry,
  type StoredSession,
} from './session-store.js';

export interface FileSessionStoreOptions {
  /** How long an append waits for another writer's lock; default 10 s. */
  readonly lockWaitMs?: number;
}

const NEWLINE = 0x0a;
const DEFAULT_LOCK_WAIT_MS = 10_000;

export class FileSessionStore implements SessionStore {
  readonly #dir: string;
  readonly #lockWaitMs: number;
  #dirReady: Promise<unknown> | undefined;

  private constructor(dir: string, options: FileSessionStoreOptions) {
    this.#dir = dir;
    this.#lockWaitMs = options.lockWaitMs ?? DEFAULT_LOCK_WAIT_MS;
  }

  /** A store in `dir`, created (0700) on first append when missing. */
  static of(dir: string, options: FileSessionStoreOptions = {}): FileSessionStore {
    return new FileSessionStore(dir, options);
  }

  /** The file a session's entries live in. */
  pathOf(sessionId: string): string {
    return join(this.#dir, `${requireSessionId(sessionId)}.jsonl`);
  }

  async load(sessionId: string): Promise<StoredSession> {
    const path = this.pathOf(sessionId);
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], version: 0 };
      throw error;
    }
    return parseLog(bytes, path);
  }

  async append(sessionId: string, expectedVersion: number, entries: readonly StoredEntry[]): Promise<number> {
    const path = this.pathOf(sessionId);
    // Serialised before the lock: an entry that cannot be stored leaves the file untouched.
    const lines = Buffer.from(entries.map((entry) => `${JSON.stringify(entryToWire(entry))}\n`).join(''));
    this.#dirReady ??= mkdir(this.#dir, { recursive: true, mode: 0o700 });
    await this.#dirReady;
    return withFileLock(`${path}.lock`, this.#lockWaitMs, async () => {
      const handle = await open(path, 'a+', 0o600);
      try {
        await checkVersion(handle, sessionId, expectedVersion);
        if (lines.length > 0) {
          await handle.write(lines, 0, lines.length, expectedVersion);
          await handle.sync();
        }
      } finally {
        await handle.close();
      }
      if (expectedVersion === 0) await syncDirectory(this.#dir);
      return expectedVersion + lines.length;
    });
  }
}

/** Whole lines are entries; a tail without its newline is a crash's torn write and is left out. */
function parseLog(bytes: Buffer, path: string): StoredSession {
  const entries: StoredEntry[] = [];
  let start = 0;
  for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
    const line = bytes.subarray(start, end).toString('utf8');
    try {
      entries.push(readEntry(JSON.parse(line), `${path}:${entries.length + 1}`));
    } catch (error) {
      throw new SessionStoreCorruptError(`line ${entries.length + 1} of ${path} is not a stored entry`, {
        cause: error,
      });
    }
    start = end + 1;
  }
  return { entries, version: start };
}

/**
 * Under the lock: the file must hold exactly what this writer last saw, plus at most a torn tail
 * (bytes with no newline), which is cut off. Whole lines past the version are another writer's.
 */
async function checkVersion(handle: FileHandle, sessionId: string, expected: number): Promise<void> {
  const { size } = await handle.stat();
  if (size === expected) return;
  if (size > expected) {
    const tail = Buffer.alloc(size - expected);
    await handle.read(tail, 0, tail.length, expected);
    if (!tail.includes(NEWLINE)) {
      await handle.truncate(expected);
      return;
    }
  }
  throw new SessionConflictError(
    `session ${sessionId} was written by another writer (file at ${size} bytes, expected ${expected})`,
  );
}

/** Makes a new file's directory entry durable, so a crash cannot lose the file after its first append. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
