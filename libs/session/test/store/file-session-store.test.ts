import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Message } from '@helios/core';
import { describeSessionStoreContract, everyEntryKind } from '../../src/testing/index.js';
import {
  entryToWire,
  FileSessionStore,
  SessionConflictError,
  SessionStoreBusyError,
  SessionStoreCorruptError,
} from '../../src/index.js';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'helios-file-store-'));
  dirs.push(dir);
  return join(dir, 'sessions');
}
afterEach(async () => {
  await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describeSessionStoreContract('FileSessionStore', async () => {
  const dir = await freshDir();
  return { store: FileSessionStore.of(dir), reopen: () => FileSessionStore.of(dir) };
});

const user = (text: string) => ({ kind: 'message', message: Message.user(text) }) as const;

describe('FileSessionStore files', () => {
  it('keeps one 0600 JSON-lines file per session in a 0700 directory', async () => {
    const dir = await freshDir();
    const store = FileSessionStore.of(dir);
    await store.append('s1', 0, [user('a'), user('b')]);
    const path = store.pathOf('s1');
    expect(path).toBe(join(dir, 's1.jsonl'));
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(path)).mode & 0o777).toBe(0o600);
    const lines = (await readFile(path, 'utf8')).split('\n');
    expect(lines).toHaveLength(3);
    expect(JSON.parse(lines[0] as string)).toEqual(entryToWire(user('a')));
  });

  it('ignores a torn last line cut at every byte offset, and the next append replaces it', async () => {
    const dir = await freshDir();
    const store = FileSessionStore.of(dir);
    const entries = everyEntryKind();
    const before = await store.append('s1', 0, entries.slice(0, -1));
    const full = await store.append('s1', before, entries.slice(-1));
    const path = store.pathOf('s1');
    const bytes = await readFile(path);
    for (let cut = before; cut < full; cut += 1) {
      await writeFile(path, bytes.subarray(0, cut));
      const loaded = await store.load('s1');
      expect(loaded.version).toBe(before);
      expect(loaded.entries).toEqual(entries.slice(0, -1));
    }
    await writeFile(path, bytes.subarray(0, before + 7));
    const next = await store.append('s1', before, [user('after the crash')]);
    const loaded = await store.load('s1');
    expect(loaded.version).toBe(next);
    expect(loaded.entries.at(-1)).toEqual(user('after the crash'));
    expect(loaded.entries).toHaveLength(entries.length);
  });

  it('refuses a damaged line that is not the torn tail', async () => {
    const dir = await freshDir();
    const store = FileSessionStore.of(dir);
    const version = await store.append('s1', 0, [user('a'), user('b')]);
    const path = store.pathOf('s1');
    const text = await readFile(path, 'utf8');
    await writeFile(path, text.replace('"a"', '"a'));
    await expect(store.load('s1')).rejects.toBeInstanceOf(SessionStoreCorruptError);
    await writeFile(path, `${text}{"kind":"message"}\n`);
    await expect(store.load('s1')).rejects.toThrow(/line 3/);
    await truncate(path, version - 1);
    expect((await store.load('s1')).entries).toEqual([user('a')]);
  });

  it('treats whole lines past the version as another writer', async () => {
    const dir = await freshDir();
    const store = FileSessionStore.of(dir);
    const version = await store.append('s1', 0, [user('a')]);
    await expect(store.append('s1', version + 5, [user('b')])).rejects.toBeInstanceOf(SessionConflictError);
    await store.append('s1', version, [user('b')]);
    await expect(store.append('s1', version, [user('c')])).rejects.toBeInstanceOf(SessionConflictError);
  });

  it("removes a dead writer's lock, waits out a live one, and gives up after the wait", async () => {
    const dir = await freshDir();
    const store = FileSessionStore.of(dir, { lockWaitMs: 150 });
    const version = await store.append('s1', 0, [user('a')]);
    const lock = `${store.pathOf('s1')}.lock`;
    await writeFile(lock, `999999999@${(await import('node:os')).hostname()}`);
    const next = await store.append('s1', version, [user('b')]);
    await writeFile(lock, `${process.pid}@${(await import('node:os')).hostname()}`);
    await expect(store.append('s1', next, [user('c')])).rejects.toBeInstanceOf(SessionStoreBusyError);
    await writeFile(lock, '');
    await expect(store.append('s1', next, [user('c')])).rejects.toBeInstanceOf(SessionStoreBusyError);
    await rm(lock);
    await store.append('s1', next, [user('c')]);
  });

  it('lets one of two processes win a race from the same version', async () => {
    const dir = await freshDir();
    const store = FileSessionStore.of(dir);
    const version = await store.append('s1', 0, [user('base')]);
    const script = `
      import { FileSessionStore } from ${JSON.stringify(new URL('../../src/index.ts', import.meta.url).pathname)};
      import { Message } from '@helios/core';
      const store = FileSessionStore.of(process.argv[1]);
      store.append('s1', Number(process.argv[2]), [{ kind: 'message', message: Message.user(process.argv[3]) }])
        .then(() => console.log('won'), (error) => console.log(error.name));
    `;
    const race = (name: string) =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--import', 'tsx', '-e', script, dir, String(version), name], {
          cwd: new URL('../..', import.meta.url).pathname,
          stdio: ['ignore', 'pipe', 'inherit'],
        });
        let out = '';
        child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
        child.on('error', reject);
        child.on('exit', () => resolve(out.trim()));
      });
    const outcomes = await Promise.all([race('p1'), race('p2')]);
    expect(outcomes.sort()).toEqual(['SessionConflict', 'won']);
    expect((await store.load('s1')).entries).toHaveLength(2);
  }, 30_000);
});
