import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { type Binaries, canRun, copyBinaries, loadBinaries } from './binaries.js';
import { placeCluster, relocatedClusterDir } from './placement.js';
import { runAsUser } from './postgres-user.js';

const asRoot = process.getuid?.() === 0;
const made: string[] = [];
afterEach(async () => {
  while (made.length) await rm(made.pop() as string, { recursive: true, force: true });
});

/** A directory under a parent of the given mode: 0700 is a private checkout, 0755 an ordinary one. */
async function dataDirUnder(parentMode: number): Promise<string> {
  const parent = await mkdtemp(join(tmpdir(), 'helios-placement-'));
  made.push(parent);
  await chmod(parent, parentMode);
  const dataDir = join(parent, '.helios');
  await mkdir(dataDir);
  return dataDir;
}

async function relocationRoot(): Promise<string> {
  const dir = await dataDirUnder(0o755);
  return join(dir, 'relocated');
}

/**
 * Binaries postgres can run: this workspace's, or a copy in an open directory when the workspace
 * itself sits in a private directory (a `mktemp -d` clone, as CI may make).
 */
async function reachableBinaries(): Promise<Binaries> {
  const binaries = await loadBinaries();
  if (await canRun(binaries, await runAsUser())) return binaries;
  return copyBinaries(binaries, await dataDirUnder(0o755));
}

describe('placeCluster', () => {
  it('derives the outside cluster from the real path: stable, and distinct per data directory', () => {
    expect(relocatedClusterDir('/root/helios/.helios', '/r')).toBe(
      relocatedClusterDir('/root/helios/.helios', '/r'),
    );
    expect(relocatedClusterDir('/root/helios/.helios', '/r')).not.toBe(
      relocatedClusterDir('/root/other/.helios', '/r'),
    );
    expect(relocatedClusterDir('/root/helios/.helios', '/r')).toMatch(
      /^\/r\/clusters\/[0-9a-f]{16}\/postgres$/,
    );
  });

  it('keeps the cluster in the data directory when the server runs as ourselves', async () => {
    const dataDir = await dataDirUnder(0o700);
    const binaries = await loadBinaries();
    const placement = await placeCluster(dataDir, binaries, {}, await relocationRoot());
    expect(placement).toEqual({ clusterDir: join(dataDir, 'postgres'), binaries, notice: undefined });
  });

  it.runIf(asRoot)('as root, keeps the cluster in a data directory postgres can enter', async () => {
    const dataDir = await dataDirUnder(0o755);
    const binaries = await reachableBinaries();
    const placement = await placeCluster(dataDir, binaries, await runAsUser(), await relocationRoot());
    expect(placement).toEqual({ clusterDir: join(dataDir, 'postgres'), binaries, notice: undefined });
  });

  it.runIf(asRoot)('as root, moves the cluster out of a data directory postgres cannot enter', async () => {
    const dataDir = await dataDirUnder(0o700);
    const root = await relocationRoot();
    const binaries = await reachableBinaries();
    const placement = await placeCluster(dataDir, binaries, await runAsUser(), root);
    const outside = relocatedClusterDir(dataDir, root);
    expect(placement.clusterDir).toBe(outside);
    expect(placement.binaries).toBe(binaries); // this workspace's binaries are reachable
    expect(placement.notice).toBe(
      `embedded PostgreSQL keeps its cluster in ${outside}, outside ${dataDir} (which the postgres system user could not enter)`,
    );
    expect(await readFile(join(outside, '..', 'data-dir'), 'utf8')).toBe(`${dataDir}\n`);
    expect((await placeCluster(dataDir, binaries, await runAsUser(), root)).clusterDir).toBe(outside);
  });

  it.runIf(asRoot)('as root, runs a copy of binaries postgres cannot reach', async () => {
    const { cp } = await import('node:fs/promises');
    const binaries = await loadBinaries();
    const hidden = await dataDirUnder(0o700);
    const nativeDir = join(binaries.postgres, '..', '..');
    await cp(nativeDir, join(hidden, 'native'), { recursive: true, verbatimSymlinks: true });
    await cp(join(nativeDir, '..', 'package.json'), join(hidden, 'package.json'));
    const unreachable = {
      initdb: join(hidden, 'native/bin/initdb'),
      postgres: join(hidden, 'native/bin/postgres'),
    };
    const root = await relocationRoot();
    const placement = await placeCluster(await dataDirUnder(0o755), unreachable, await runAsUser(), root);
    expect(placement.binaries.postgres).toMatch(new RegExp(`^${root}/binaries/[^/]+/bin/postgres$`));
    expect(placement.notice).toBe(
      `embedded PostgreSQL runs a copy of its binaries from ${join(placement.binaries.postgres, '..')}`,
    );
  });

  it.runIf(asRoot)('as root, refuses a relocation directory another user prepared', async () => {
    const root = await relocationRoot();
    await mkdir(join(root, 'clusters'), { recursive: true, mode: 0o755 });
    const nobody = Number((await promisify(execFile)('id', ['-u', 'nobody'])).stdout.trim());
    await chown(join(root, 'clusters'), nobody, 0);
    const placing = placeCluster(
      await dataDirUnder(0o700),
      await reachableBinaries(),
      await runAsUser(),
      root,
    );
    await expect(placing).rejects.toThrow(
      `the relocation directory ${join(root, 'clusters')} is owned by uid ${nobody}, not by uid 0`,
    );
  });

  it.runIf(asRoot)('as root, refuses a relocation directory others can write to', async () => {
    const root = await relocationRoot();
    await mkdir(root, { recursive: true });
    await chmod(root, 0o777);
    const placing = placeCluster(
      await dataDirUnder(0o700),
      await reachableBinaries(),
      await runAsUser(),
      root,
    );
    await expect(placing).rejects.toThrow(
      `the relocation directory ${root} is writable by other users (mode 0777)`,
    );
  });
});
