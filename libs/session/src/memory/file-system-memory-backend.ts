/**
 * FileSystemMemoryBackend: the agent's memory as files under `<workspace>/.agent/memory` (or a
 * configured memory directory), addressed as `/memories/...`. Strictly narrower than the file tools:
 * a memory path must canonicalise to exactly its lexical location, so any symbolic link on it is
 * refused (even one pointing inside the workspace); I/O is always strict (descriptor-confined, no
 * trusted mode); content is strict UTF-8, validated before anything is created or changed. New files
 * are 0600 and new directories 0700.
 *
 * Edits (str_replace, insert) read the file, then rewrite it in place: memory assumes one writer per
 * workspace (the session); concurrent writers of one file may lose an edit.
 */
import { join } from 'node:path';
import { WorkspaceRoot } from '../workspace/workspace-root.js';
import { type WorkspaceStat } from '../workspace/io-common.js';
import { WorkspacePathError } from '../workspace/workspace-error.js';
import { RESERVED_MEMORY_DIR } from '../workspace-tools/reserved.js';
import { numbered } from '../workspace-tools/line-pager.js';
import { asMemoryError, MemoryError } from './memory-error.js';
import { memoryPathOf, type MemoryPath, parseMemoryFilePath, parseMemoryPath } from './memory-path.js';
import { insertAtLine, replaceExactlyOnce } from './text-edits.js';
import { decodeStrict, strictText } from './utf8.js';

/** The largest memory file read or written (1 MiB). */
export const MAX_MEMORY_FILE_BYTES = 1024 * 1024;
/** What view and list show for a directory without memory files. */
export const MEMORY_EMPTY = '(empty)';
/** What view shows for an empty memory file. */
export const MEMORY_EMPTY_FILE = '(empty file)';

/** The commands behind MemoryRead and MemoryWrite; every path is a `/memories/...` path. */
export interface MemoryBackend {
  /** A file as numbered lines (`%6d<TAB>line`), or a directory's entries (directories end in `/`). */
  view(path: string): Promise<string>;
  /** Every memory file at or below `path` (default `/memories`), sorted. */
  list(path?: string): Promise<string[]>;
  /** Creates a file; never overwrites. */
  create(path: string, content: string | Uint8Array): Promise<void>;
  /** Replaces the one occurrence of `oldString`; zero or several occurrences are refused. */
  strReplace(path: string, oldString: string, newString: string): Promise<void>;
  /** Inserts `content` to start at 1-based line `lineNumber` (1 to n+1). */
  insert(path: string, lineNumber: number, content: string): Promise<void>;
  /** Deletes a file (never a directory). */
  delete(path: string): Promise<void>;
}

export class FileSystemMemoryBackend implements MemoryBackend {
  /** The strict WorkspaceRoot the memory is stored through. */
  readonly storage: WorkspaceRoot;
  /** Where `/memories` lives, below `storage.root`. */
  private readonly base: readonly string[];

  /**
   * @param source a workspace (memory under its reserved `.agent/memory`; a trusted workspace is
   *   reopened in strict mode), or the path of an existing directory that is itself the memory root.
   * @throws WorkspacePathError as `new WorkspaceRoot` does (strict mode off Linux fails closed).
   */
  constructor(source: WorkspaceRoot | string) {
    if (typeof source === 'string') {
      this.storage = new WorkspaceRoot(source);
      this.base = [];
    } else {
      this.storage = source.trusted ? new WorkspaceRoot(source.root, { aliases: source.aliases }) : source;
      this.base = RESERVED_MEMORY_DIR.split('/');
    }
  }

  async view(path: string): Promise<string> {
    const memory = parseMemoryPath(path);
    return this.guard(memory, async (relative) => {
      const stat = await this.statOf(memory, relative);
      if (stat?.type === 'Directory') return this.directoryView(memory, relative);
      if (stat === undefined && memory.segments.length === 0) return MEMORY_EMPTY;
      const lines = splitKeepingText(await this.readText(memory, relative));
      if (lines.length === 0) return MEMORY_EMPTY_FILE;
      return lines.map((line, index) => numbered(index + 1, line)).join('\n');
    });
  }

  async list(path = memoryPathOf([])): Promise<string[]> {
    const memory = parseMemoryPath(path);
    return this.guard(memory, async (relative) => {
      const stat = await this.statOf(memory, relative);
      if (stat === undefined && memory.segments.length === 0) return [];
      if (stat === undefined) throw new MemoryError(memory.requested, 'NotFound');
      if (stat.type === 'File') return [memoryPathOf(memory.segments)];
      const prefix = this.base.length === 0 ? '' : `${this.base.join('/')}/`;
      const found: string[] = [];
      for await (const entry of this.storage.walk(relative)) {
        if (entry.type === 'File') found.push(memoryPathOf(entry.path.slice(prefix.length).split('/')));
      }
      return found.sort();
    });
  }

  async create(path: string, content: string | Uint8Array): Promise<void> {
    const memory = parseMemoryFilePath(path);
    const text = this.checkedContent(memory, content, 'content');
    await this.guard(memory, (relative) => this.storage.writeFile(relative, text, { exclusive: true }));
  }

  async strReplace(path: string, oldString: string, newString: string): Promise<void> {
    const memory = parseMemoryFilePath(path);
    const oldText = strictText(memory.requested, oldString, 'oldString');
    const newText = strictText(memory.requested, newString, 'newString');
    await this.guard(memory, async (relative) => {
      const text = await this.readText(memory, relative);
      const edited = replaceExactlyOnce(memory.requested, text, oldText, newText);
      await this.storage.writeFile(relative, this.checkedContent(memory, edited, 'the result'));
    });
  }

  async insert(path: string, lineNumber: number, content: string): Promise<void> {
    const memory = parseMemoryFilePath(path);
    const inserted = strictText(memory.requested, content, 'content');
    await this.guard(memory, async (relative) => {
      const text = await this.readText(memory, relative);
      const edited = insertAtLine(memory.requested, text, lineNumber, inserted);
      await this.storage.writeFile(relative, this.checkedContent(memory, edited, 'the result'));
    });
  }

  async delete(path: string): Promise<void> {
    const memory = parseMemoryFilePath(path);
    await this.guard(memory, (relative) => this.storage.deleteFile(relative));
  }

  /**
   * Runs `use` on the storage-relative path once the path has been checked to canonicalise to exactly
   * its lexical location (no link anywhere on it); workspace refusals are re-told for the memory path.
   */
  private async guard<T>(memory: MemoryPath, use: (relative: string) => Promise<T>): Promise<T> {
    const segments = [...this.base, ...memory.segments];
    const relative = segments.join('/') || '.';
    try {
      const canonical = await this.storage.resolve(relative);
      if (canonical !== join(this.storage.root, ...segments)) {
        throw new MemoryError(memory.requested, 'Symlink');
      }
      return await use(relative);
    } catch (error) {
      throw asMemoryError(memory.requested, error);
    }
  }

  /** The entry's metadata (a link is reported as a link), or undefined when it does not exist. */
  private async statOf(memory: MemoryPath, relative: string): Promise<WorkspaceStat | undefined> {
    const stat = await this.storage.stat(relative).catch((error: unknown) => {
      if (error instanceof WorkspacePathError && error.reason === 'NotFound') return undefined;
      throw error;
    });
    if (stat?.type === 'Symlink') throw new MemoryError(memory.requested, 'Symlink');
    return stat;
  }

  private async readText(memory: MemoryPath, relative: string): Promise<string> {
    const bytes = await this.storage.readFile(relative, { maxBytes: MAX_MEMORY_FILE_BYTES });
    return decodeStrict(memory.requested, bytes);
  }

  private async directoryView(memory: MemoryPath, relative: string): Promise<string> {
    const entries = await this.storage.readDir(relative);
    const lines = entries
      .filter((entry) => entry.type === 'Directory' || entry.type === 'File')
      .map(
        (entry) => memoryPathOf([...memory.segments, entry.name]) + (entry.type === 'Directory' ? '/' : ''),
      );
    return lines.length === 0 ? MEMORY_EMPTY : lines.join('\n');
  }

  /** Strict UTF-8 text within the size cap, checked before anything is written. */
  private checkedContent(memory: MemoryPath, content: unknown, what: string): string {
    const text = strictText(memory.requested, content, what);
    const size = Buffer.byteLength(text, 'utf8');
    if (size > MAX_MEMORY_FILE_BYTES) {
      throw new MemoryError(
        memory.requested,
        'TooLarge',
        `${size} bytes; the cap is ${MAX_MEMORY_FILE_BYTES}`,
      );
    }
    return text;
  }
}

/** A file's lines for view (a final newline ends the last line; `\r` is kept as written). */
function splitKeepingText(text: string): string[] {
  if (text === '') return [];
  return (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
}
