/** Temp-dir layouts for the WorkspaceRoot suites: a root, a sibling "outside" holding a secret. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { WorkspacePathError, type WorkspaceRefusal } from '../../src/index.js';

export const SECRET = 'OUTSIDE-SECRET-CONTENT';

export interface Sandbox {
  /** The temp directory holding both (canonical). */
  readonly base: string;
  /** The workspace root (canonical). */
  readonly root: string;
  /** A sibling directory outside the root, holding `secret.txt` and `dir/secret.txt`. */
  readonly outside: string;
  readonly cleanup: () => void;
}

export function makeSandbox(): Sandbox {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'helios-ws-')));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  mkdirSync(root);
  mkdirSync(join(outside, 'dir'), { recursive: true });
  writeFileSync(join(outside, 'secret.txt'), SECRET);
  writeFileSync(join(outside, 'dir', 'secret.txt'), SECRET);
  return { base, root, outside, cleanup: () => rmSync(base, { recursive: true, force: true }) };
}

/** Writes `files` (relative path → content) and `links` (relative path → target) under `dir`. */
export function populate(
  dir: string,
  files: Readonly<Record<string, string>>,
  links: Readonly<Record<string, string>> = {},
): void {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  for (const [path, target] of Object.entries(links)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    symlinkSync(target, join(dir, path));
  }
}

/** Asserts `promise` rejects with a WorkspacePathError for `reason` (one of `reasons`). */
export async function expectRefused(
  promise: Promise<unknown>,
  ...reasons: WorkspaceRefusal[]
): Promise<WorkspacePathError> {
  const error: unknown = await promise.then(
    (value) => ({ resolvedTo: value }),
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(WorkspacePathError);
  const refused = error as WorkspacePathError;
  expect(reasons).toContain(refused.reason);
  expect(refused.code).toBe('WORKSPACE_PATH_REFUSED');
  expect(refused.message).not.toContain(SECRET);
  return refused;
}

/** True when `path` is the root or inside it. */
export function isInside(root: string, path: string): boolean {
  return path === root || path.startsWith(`${root}/`);
}
