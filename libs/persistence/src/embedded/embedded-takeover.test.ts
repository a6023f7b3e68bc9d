/**
 * Security issue 15, item 6: a data directory someone else prepared must not hand them the embedded
 * database (or a root-owned file). Each test performs the attack against EmbeddedPostgres.start.
 */
import { execFile } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { EmbeddedPostgres } from './embedded-postgres.js';

const asRoot = process.getuid?.() === 0;
const quiet = { info: () => undefined, warn: () => undefined };
const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()?.();
});

/** Enterable by postgres (when root runs it as postgres), so the cluster stays in the data directory. */
async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'helios-takeover-'));
  await chmod(dir, 0o755);
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

async function start(dataDir: string): Promise<EmbeddedPostgres> {
  const server = await EmbeddedPostgres.start({ dataDir, logger: quiet });
  cleanups.push(() => server.stop());
  return server;
}

/** A file of ours the attacker wants overwritten (root's, when the tests run as root). */
async function victimFile(): Promise<string> {
  const victim = join(await scratchDir(), 'victim');
  await writeFile(victim, 'original\n', { mode: 0o644 });
  return victim;
}

async function nobody(): Promise<{ uid: number; gid: number }> {
  const id = async (flag: string) =>
    Number((await promisify(execFile)('id', [flag, 'nobody'])).stdout.trim());
  return { uid: await id('-u'), gid: await id('-g') };
}

async function canLogIn(port: number, user: string, password: string, database: string): Promise<boolean> {
  const client = new pg.Client({ host: '127.0.0.1', port, user, password, database });
  try {
    await client.connect();
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

describe('a data directory prepared by someone else', () => {
  it.runIf(asRoot)('owned by another user (nobody) is refused, and nothing is written into it', async () => {
    const dataDir = join(await scratchDir(), '.helios');
    await mkdir(dataDir, { mode: 0o700 });
    const { uid, gid } = await nobody();
    await chown(dataDir, uid, gid);
    await writeFile(join(dataDir, 'postgres.password'), 'attacker-chosen\n');
    await expect(start(dataDir)).rejects.toThrow(
      `the data directory ${dataDir} is owned by uid ${uid}, not by uid 0 which runs the embedded PostgreSQL there`,
    );
    expect(await readdir(dataDir)).toEqual(['postgres.password']);
  });

  it('writable by other users (mode 0777) is refused, saying what to fix', async () => {
    const dataDir = join(await scratchDir(), '.helios');
    await mkdir(dataDir);
    await chmod(dataDir, 0o777);
    await expect(start(dataDir)).rejects.toThrow(
      `the data directory ${dataDir} is writable by other users (mode 0777); chmod go-w ${dataDir}`,
    );
    expect(await readdir(dataDir)).toEqual([]);
  });

  it.runIf(asRoot)(
    'with a cluster directory owned by another user is refused before it is used',
    async () => {
      const dataDir = join(await scratchDir(), '.helios');
      await mkdir(join(dataDir, 'postgres'), { recursive: true, mode: 0o700 });
      const { uid, gid } = await nobody();
      await chown(join(dataDir, 'postgres'), uid, gid);
      await expect(start(dataDir)).rejects.toThrow(
        `the cluster directory ${join(dataDir, 'postgres')} is owned by uid ${uid}`,
      );
    },
  );

  it('never writes through a symlink planted at the temporary password file or the log', async () => {
    const dataDir = join(await scratchDir(), '.helios');
    await mkdir(dataDir, { mode: 0o700 });
    const victim = await victimFile();
    // Earlier versions wrote the superuser's password to <cluster>.pw-<our pid> during initdb.
    await symlink(victim, join(dataDir, `postgres.pw-${process.pid}`));
    const server = await start(dataDir);
    expect(await readFile(victim, 'utf8')).toBe('original\n');
    await server.stop();
    cleanups.pop();

    await symlink(victim, join(dataDir, 'postgres.log.planted'));
    await rm(join(dataDir, 'postgres.log'));
    await symlink(victim, join(dataDir, 'postgres.log'));
    await expect(start(dataDir)).rejects.toThrow(
      `${join(dataDir, 'postgres.log')} is a symbolic link, which we never write through`,
    );
    expect(await readFile(victim, 'utf8')).toBe('original\n');
  });

  it('a planted postgres.password grants nothing: the password is ours, the superuser has none', async () => {
    const dataDir = join(await scratchDir(), '.helios');
    await mkdir(dataDir, { mode: 0o700 });
    await writeFile(join(dataDir, 'postgres.password'), 'attacker-chosen\n', { mode: 0o600 });
    const server = await start(dataDir);
    for (const user of ['postgres', 'helios_app']) {
      for (const database of ['postgres', 'helios']) {
        expect(await canLogIn(server.port, user, 'attacker-chosen', database)).toBe(false);
      }
    }
    expect(await readdir(dataDir)).not.toContain('postgres.password');
    expect(server.url).not.toContain('attacker-chosen');
    expect(await canLogIn(server.port, 'helios_app', new URL(server.url).password, 'helios')).toBe(true);
  });
});
