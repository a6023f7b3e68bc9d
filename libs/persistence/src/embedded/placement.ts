import { createHash } from 'node:crypto';
import { readFile, realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { canRun, copyBinaries, type Binaries } from './binaries.js';
import { EmbeddedPostgresError } from './errors.js';
import { exists } from './path-exists.js';
import { canEnter, type RunAs } from './postgres-user.js';
import { createPrivateFile } from './private-files.js';
import { makeTrustedDirectory } from './trusted-directory.js';

/**
 * Where clusters and binaries go when the `postgres` system user cannot reach the data directory or the
 * checkout (a clone in root's 0700 home or in a `mktemp -d` directory): a directory of ours, owned by
 * root, writable by root alone and enterable by everyone, whose cluster directories only `postgres`
 * can read. One that exists owned by someone else, or writable by others, is refused.
 */
export const DEFAULT_RELOCATION_ROOT = '/var/lib/helios-postgres';

export interface Placement {
  /** PGDATA. */
  readonly clusterDir: string;
  readonly binaries: Binaries;
  /** Set when something lives outside the data directory: the one log line that says where and why. */
  readonly notice?: string;
}

/**
 * The outside cluster of a data directory, derived from the data directory's real path: the same
 * checkout finds it at every start, and two checkouts never share one.
 */
export function relocatedClusterDir(dataDirRealPath: string, root = DEFAULT_RELOCATION_ROOT): string {
  const key = createHash('sha256').update(dataDirRealPath).digest('hex').slice(0, 16);
  return join(root, 'clusters', key, 'postgres');
}

/**
 * Chooses PGDATA and the binaries for a server that runs with `runAs`. Not root: `<dataDir>/postgres`, as
 * always. Root: the same when `postgres` can enter the data directory (and no outside cluster exists for
 * it already), else the outside cluster; the binaries in place when `postgres` can run them, else a copy.
 */
export async function placeCluster(
  dataDir: string,
  binaries: Binaries,
  runAs: RunAs,
  root = DEFAULT_RELOCATION_ROOT,
): Promise<Placement> {
  const inside = join(dataDir, 'postgres');
  if (runAs.uid === undefined) return { clusterDir: inside, binaries };
  const realDataDir = await realpath(dataDir);
  const outside = relocatedClusterDir(realDataDir, root);
  const relocate =
    (await exists(join(outside, 'PG_VERSION'))) ||
    (!(await exists(join(inside, 'PG_VERSION'))) && !(await canEnter(dirname(realDataDir), runAs)));
  const runnable = (await canRun(binaries, runAs))
    ? binaries
    : await runnableCopy(binaries, join(root, 'binaries'), runAs);
  const clusterDir = relocate ? await prepareOutside(realDataDir, outside, root, runAs) : inside;
  const copied =
    runnable === binaries ? '' : `runs a copy of its binaries from ${dirname(runnable.postgres)}`;
  const kept = relocate
    ? `keeps its cluster in ${clusterDir}, outside ${dataDir} (which the postgres system user could not enter)`
    : '';
  const notice = [kept, copied].filter(Boolean).join(' and ');
  return { clusterDir, binaries: runnable, notice: notice ? `embedded PostgreSQL ${notice}` : undefined };
}

async function runnableCopy(binaries: Binaries, binariesRoot: string, runAs: RunAs): Promise<Binaries> {
  await makeOurDirectory(dirname(binariesRoot));
  await makeOurDirectory(binariesRoot);
  const copy = await copyBinaries(binaries, binariesRoot);
  if (!(await canRun(copy, runAs))) {
    throw new EmbeddedPostgresError(
      `the postgres system user can run neither ${binaries.postgres} nor its copy ${copy.postgres}; every directory above them must be enterable by it`,
    );
  }
  return copy;
}

/** The outside cluster's parent, labelled with the data directory it belongs to. */
async function prepareOutside(
  realDataDir: string,
  clusterDir: string,
  root: string,
  runAs: RunAs,
): Promise<string> {
  const home = dirname(clusterDir);
  for (const dir of [root, dirname(home), home]) await makeOurDirectory(dir);
  const label = join(home, 'data-dir');
  const owner = await readFile(label, 'utf8').catch(() => undefined);
  if (owner === undefined) await createPrivateFile(label, `${realDataDir}\n`);
  else if (owner.trim() !== realDataDir) {
    throw new EmbeddedPostgresError(
      `${home} belongs to the data directory ${owner.trim()}, not ${realDataDir}; move it away`,
    );
  }
  if (!(await canEnter(home, runAs))) {
    throw new EmbeddedPostgresError(
      `the postgres system user cannot enter ${home}; every directory above it must be enterable by it`,
    );
  }
  return clusterDir;
}

/**
 * A directory of ours enterable by everyone (postgres must pass through, whatever the umask); one that
 * exists must be root's and writable by root alone, or someone else could swap what we keep in it.
 */
async function makeOurDirectory(dir: string): Promise<void> {
  await makeTrustedDirectory(dir, 0o755, 'relocation directory');
}
