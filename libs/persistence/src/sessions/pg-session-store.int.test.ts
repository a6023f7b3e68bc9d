/** PgSessionStore on real PostgreSQL (embedded, and CI's server): the store contract, byte fidelity, two pools racing. */
import { Message, toolCall } from '@helios/core';
import { newSessionId, SessionConflictError, SessionStoreCorruptError } from '@helios/session';
import { describeSessionStoreContract } from '@helios/session/testing';
import { describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PersistenceConfig } from '../observability/persistence-config.js';
import { PgSessionStore } from './pg-session-store.js';

describe.each(databaseTargets)('PgSessionStore on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);

  describeSessionStoreContract('PgSessionStore', async () => {
    const other = await db.open(4);
    return {
      store: new PgSessionStore(db.dataSource),
      reopen: () => new PgSessionStore(other),
      cleanup: () => other.destroy(),
    };
  });

  it('stores entries as the exact JSON text the session wrote (json, not jsonb)', async () => {
    const store = new PgSessionStore(db.dataSource);
    const id = newSessionId();
    const assistant = Message.assistant('', {
      toolCalls: [toolCall('c1', 'f', { z: 1, a: { y: 2, b: 3 } })],
      metadata: { zz: 'signed+/=', aa: '{"b":1,"a":2}' },
    });
    await store.append(id, 0, [{ kind: 'message', message: assistant }]);
    const [row] = (await db.dataSource.query(
      `SELECT "kind", "body"::text AS body FROM helios_session_entries WHERE session_id = $1`,
      [id],
    )) as { kind: string; body: string }[];
    expect(row?.kind).toBe('message');
    expect(row?.body).toBe(
      '{"kind":"message","message":{"role":"assistant","content":"","toolCalls":[{"id":"c1","name":"f","arguments":{"z":1,"a":{"y":2,"b":3}}}],"metadata":{"zz":"signed+/=","aa":"{\\"b\\":1,\\"a\\":2}"}}}',
    );
    const loaded = await store.load(id);
    expect(JSON.stringify(loaded.entries[0])).toBe(JSON.stringify({ kind: 'message', message: assistant }));
  });

  it('lets one of two connection pools win each append race, many times over', async () => {
    const pools = [await db.open(4), await db.open(4)];
    try {
      const stores = pools.map((pool) => new PgSessionStore(pool));
      const id = newSessionId();
      let version = 0;
      for (let round = 0; round < 20; round += 1) {
        const outcomes = await Promise.allSettled(
          stores.map((store, index) =>
            store.append(id, version, [{ kind: 'message', message: Message.user(`${round}:${index}`) }]),
          ),
        );
        const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
        expect(won).toHaveLength(1);
        const lost = outcomes.find((outcome) => outcome.status === 'rejected');
        expect(lost?.status === 'rejected' && lost.reason).toBeInstanceOf(SessionConflictError);
        version = (won[0] as PromiseFulfilledResult<number>).value;
      }
      const loaded = await stores[0]?.load(id);
      expect(loaded?.version).toBe(20);
      expect(loaded?.entries).toHaveLength(20);
    } finally {
      for (const pool of pools) await pool.destroy();
    }
  });

  it('refuses a version it never gave, and deletes a session with its entries', async () => {
    const store = new PgSessionStore(db.dataSource);
    const id = newSessionId();
    await expect(store.append(id, 3, [{ kind: 'questionClosed', questionId: 'q' }])).rejects.toBeInstanceOf(
      SessionConflictError,
    );
    await expect(store.append(id, -1, [])).rejects.toBeInstanceOf(SessionConflictError);
    expect(await store.append(id, 0, [])).toBe(0);
    expect(await store.append(id, 0, [{ kind: 'questionClosed', questionId: 'q' }])).toBe(1);
    expect(await store.delete(id)).toBe(true);
    expect(await store.delete(id)).toBe(false);
    expect(await store.load(id)).toEqual({ entries: [], version: 0 });
  });

  it('reports a damaged row instead of loading a corrupt history', async () => {
    const store = new PgSessionStore(db.dataSource);
    const id = newSessionId();
    await store.append(id, 0, [{ kind: 'questionClosed', questionId: 'q' }]);
    await db.dataSource.query(
      `UPDATE helios_session_entries SET body = '{"kind":"questionClosed"}' WHERE session_id = $1`,
      [id],
    );
    await expect(store.load(id)).rejects.toBeInstanceOf(SessionStoreCorruptError);
  });

  it('works in a configured schema, naming it in every statement', async () => {
    const config = new PersistenceConfig({ schema: 'helios_sessions_elsewhere' });
    const store = new PgSessionStore(db.dataSource, config);
    await expect(store.load(newSessionId())).rejects.toThrow(/helios_sessions_elsewhere/);
  });
});
