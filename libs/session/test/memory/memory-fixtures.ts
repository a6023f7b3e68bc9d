/** A workspace sandbox with a memory backend on it, and helpers to inspect the memory directory. */
import { lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { FileSystemMemoryBackend, MemoryError, type MemoryRefusal, WorkspaceRoot } from '../../src/index.js';
import { makeSandbox, SECRET, type Sandbox } from '../workspace/fixtures.js';

export interface MemoryBox extends Sandbox {
  /** `<root>/.agent/memory` (may not exist yet). */
  readonly memoryDir: string;
  readonly workspace: WorkspaceRoot;
  readonly memory: FileSystemMemoryBackend;
}

export function makeMemoryBox(): MemoryBox {
  const box = makeSandbox();
  const workspace = new WorkspaceRoot(box.root);
  return {
    ...box,
    memoryDir: join(box.root, '.agent', 'memory'),
    workspace,
    memory: new FileSystemMemoryBackend(workspace),
  };
}

/** Asserts `promise` rejects with a MemoryError for one of `reasons`, leaking no outside content. */
export async function expectMemoryRefused(
  promise: Promise<unknown>,
  ...reasons: MemoryRefusal[]
): Promise<MemoryError> {
  const error: unknown = await promise.then(
    (value) => ({ resolvedTo: value }),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MemoryError);
  const refused = error as MemoryError;
  expect(reasons).toContain(refused.reason);
  expect(refused.code).toBe('MEMORY_REFUSED');
  expect(refused.message).not.toContain(SECRET);
  return refused;
}

/** Every entry under `dir` (recursive, links not followed) with its type, size and permission bits. */
export function snapshot(dir: string): string[] {
  const out: string[] = [];
  const visit = (path: string, rel: string): void => {
    for (const name of readdirSync(path).sort()) {
      const full = join(path, name);
      const stats = lstatSync(full);
      const kind = stats.isSymbolicLink() ? 'link' : stats.isDirectory() ? 'dir' : 'file';
      out.push(`${rel}${name} ${kind} ${stats.size} ${(stats.mode & 0o7777).toString(8)}`);
      if (kind === 'dir') visit(full, `${rel}${name}/`);
    }
  };
  visit(dir, '');
  return out;
}

/** Permission bits of `path` (not following a link). */
export function modeOf(path: string): number {
  return lstatSync(path).mode & 0o777;
}
