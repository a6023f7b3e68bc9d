import { describe, expect, it } from 'vitest';
import { Message } from '@helios/core';
import { describeSessionStoreContract } from '../../src/testing/index.js';
import { InMemorySessionStore } from '../../src/index.js';

describeSessionStoreContract('InMemorySessionStore', () => {
  const store = new InMemorySessionStore();
  return Promise.resolve({ store, reopen: () => store });
});

describe('InMemorySessionStore', () => {
  it('hands out copies: changing what loaded changes nothing stored', async () => {
    const store = new InMemorySessionStore();
    await store.append('s1', 0, [{ kind: 'message', message: Message.user('kept') }]);
    const loaded = await store.load('s1');
    (loaded.entries as unknown[]).length = 0;
    expect((await store.load('s1')).entries).toHaveLength(1);
    expect(store.sessionIds()).toEqual(['s1']);
  });

  it('writes nothing when an entry cannot be stored', async () => {
    const store = new InMemorySessionStore();
    const bad = { kind: 'nonsense' } as never;
    await expect(
      store.append('s1', 0, [{ kind: 'message', message: Message.user('a') }, bad]),
    ).rejects.toThrow();
    expect((await store.load('s1')).version).toBe(0);
  });
});
