/**
 * `npm start` from a checkout the `postgres` system user cannot enter (a clone in root's 0700 home or in a
 * `mktemp -d` directory): as root the embedded PostgreSQL must run as `postgres`, which can reach neither
 * `.helios/` nor the binaries in node_modules there. The API must start anyway, keep its cluster in a
 * place of its own outside the checkout, and find that cluster again at the next start.
 */
import { execFile } from 'node:child_process';
import { access, rm } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '@helios/persistence/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { runNode, startApi, type ApiProcess } from './support/api-process.js';
import { privateCheckout, type PrivateCheckout } from './support/private-checkout.js';

const asRoot = process.getuid?.() === 0;

interface User {
  readonly uid: number;
  readonly gid: number;
}

/** As root, an ordinary account to run the API as; otherwise we are one. */
async function ordinaryUser(): Promise<User | undefined> {
  if (!asRoot) return undefined;
  const id = async (flag: string) =>
    Number((await promisify(execFile)('id', [flag, 'nobody'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

/**
 * The non-root checkout links its dependencies to this workspace's, so `nobody` must be able to enter
 * the workspace: not so when the workspace is itself a clone in a private directory (`mktemp -d`).
 */
async function nobodyCannotEnterWorkspace(): Promise<string | undefined> {
  const user = await ordinaryUser();
  if (!user) return undefined;
  const workspace = join(import.meta.dirname, '../../..');
  try {
    await promisify(execFile)('/bin/sh', ['-c', 'cd -- "$1"', 'sh', workspace], { ...user, cwd: '/' });
    return undefined;
  } catch {
    return `nobody cannot enter this workspace (${workspace}), which the non-root checkout links its dependencies to`;
  }
}

const skipReason = await nobodyCannotEnterWorkspace();
if (skipReason) console.warn(`skipping the non-root private-checkout test: ${skipReason}`);
const nonRootUnreachable = skipReason !== undefined;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

async function checkout(owner?: User): Promise<PrivateCheckout> {
  const made = await privateCheckout(owner);
  cleanups.push(() => made.dispose());
  return made;
}

async function start(where: PrivateCheckout, user?: User): Promise<ApiProcess> {
  const api = await startApi(await freePort(), { LOG_LEVEL: 'info' }, 60_000, {
    script: where.apiMain,
    cwd: where.root,
    ...user,
  });
  cleanups.push(async () => {
    if (api.child.exitCode === null && api.child.signalCode === null) api.child.kill('SIGTERM');
    await api.exited;
  });
  return api;
}

async function instance(api: ApiProcess): Promise<{ id: string; startCount: number }> {
  const status = (await (await fetch(`${api.url}/v1/status`)).json()) as {
    instance: { id: string; startCount: number };
  };
  return status.instance;
}

const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

/** The cluster directory named by the API's one relocation line. */
function relocatedCluster(output: string): string {
  const match = /keeps its cluster in (\/\S+?)(?=[ ,;"])/.exec(output);
  if (!match?.[1]) throw new Error(`no relocation line in the API's output:\n${output}`);
  return match[1];
}

describe('a checkout the postgres user cannot enter', () => {
  it.runIf(asRoot)(
    'as root: starts, keeps its cluster outside the checkout and finds it again after a restart',
    async () => {
      const where = await checkout();
      const first = await start(where);
      const clusterDir = relocatedCluster(first.output());
      cleanups.splice(1, 0, () => rm(dirname(clusterDir), { recursive: true, force: true }));
      expect(clusterDir.startsWith(where.privateDir)).toBe(false);
      expect(await exists(join(clusterDir, 'PG_VERSION'))).toBe(true);
      expect(await exists(join(where.root, '.helios/postgres'))).toBe(false);
      // The owner lock stays in the checkout's data directory: a second API there is still refused.
      const second = await runNode(where.apiMain, [], { PORT: String(await freePort()) }, 60_000, where.root);
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`is in use by process ${first.child.pid}`);
      const before = await instance(first);

      first.child.kill('SIGTERM');
      expect((await first.exited).code).toBe(0);
      const again = await start(where);
      expect(relocatedCluster(again.output())).toBe(clusterDir);
      expect(await instance(again)).toMatchObject({ id: before.id, startCount: before.startCount + 1 });
    },
  );

  it.skipIf(nonRootUnreachable)(
    'not as root (as nobody when the tests run as root): the cluster stays in .helios/',
    async () => {
      const user = await ordinaryUser();
      const where = await checkout(user);
      const api = await start(where, user);
      expect(await exists(join(where.root, '.helios/postgres/PG_VERSION'))).toBe(true);
      expect(api.output()).not.toContain('keeps its cluster in');
    },
  );
});
