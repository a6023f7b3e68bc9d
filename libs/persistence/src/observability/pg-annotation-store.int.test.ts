/** PgAnnotationStore on real PostgreSQL: idempotent upsert, batch reads, paging. (SCIM: annotation-scim.int.test.ts.) */
import { InvalidArgumentError, newId } from '@helios/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { type AnnotationInput } from './annotation.js';
import { PgAnnotationStore } from './pg-annotation-store.js';

const base = (subjectId: string, change: Partial<AnnotationInput> = {}): AnnotationInput => ({
  subjectId,
  label: 'relevance',
  authorKind: 'HUMAN',
  authorId: 'reviewer-1',
  rating: 3,
  comment: 'fine',
  metadata: { round: 1 },
  ...change,
});

describe.each(databaseTargets)('PgAnnotationStore on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgAnnotationStore;

  const count = async (subjectId: string): Promise<number> => {
    const rows = (await db.dataSource.query(
      `SELECT count(*)::int AS n FROM "helios_annotations" WHERE "subject_id" = $1`,
      [subjectId],
    )) as { n: number }[];
    return rows[0]?.n ?? -1;
  };

  beforeAll(() => {
    store = new PgAnnotationStore(db.dataSource);
  });

  it('stores every field and reads it back', async () => {
    const subject = newId();
    const at = new Date('2025-03-01T12:00:00.123Z');
    const stored = await store.upsertAnnotation(
      base(subject, { facet: 'tone', authorKind: 'MODEL', metadata: { nested: { a: [1, 'two'] } }, at }),
    );
    expect(stored).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      subjectId: subject,
      facet: 'tone',
      label: 'relevance',
      authorKind: 'MODEL',
      authorId: 'reviewer-1',
      rating: 3,
      comment: 'fine',
      metadata: { nested: { a: [1, 'two'] } },
      createdAt: at,
      updatedAt: at,
    });
    expect(await store.findBySubject(subject)).toEqual([stored]);
  });

  it('upserts on (subjectId, facet, label, authorId): the same key twice is one row, updated', async () => {
    const subject = newId();
    const first = await store.upsertAnnotation(
      base(subject, { facet: 'accuracy', at: new Date('2025-01-01Z') }),
    );
    const second = await store.upsertAnnotation(
      base(subject, {
        facet: 'accuracy',
        authorKind: 'SYSTEM',
        rating: 5,
        comment: 'better',
        metadata: { round: 2 },
        at: new Date('2025-01-02Z'),
      }),
    );
    expect(await count(subject)).toBe(1);
    expect(second).toEqual({
      ...first,
      authorKind: 'SYSTEM',
      rating: 5,
      comment: 'better',
      metadata: { round: 2 },
      updatedAt: new Date('2025-01-02Z'),
    });
    expect(await store.findBySubject(subject)).toEqual([second]);
  });

  it('keys a facet-less annotation too (NULL facet is one key, not always new)', async () => {
    const subject = newId();
    await store.upsertAnnotation(base(subject, { facet: null, rating: 1 }));
    const again = await store.upsertAnnotation(base(subject, { rating: 2 }));
    expect(await count(subject)).toBe(1);
    expect(again.rating).toBe(2);
  });

  it('keeps different facets, labels and authors apart, and always inserts author-less rows', async () => {
    const subject = newId();
    await store.upsertAnnotation(base(subject));
    await store.upsertAnnotation(base(subject, { facet: 'a' }));
    await store.upsertAnnotation(base(subject, { facet: 'b' }));
    await store.upsertAnnotation(base(subject, { label: 'other' }));
    await store.upsertAnnotation(base(subject, { authorId: 'reviewer-2' }));
    await store.upsertAnnotation(base(subject, { authorId: null, authorKind: 'SYSTEM' }));
    await store.upsertAnnotation(base(subject, { authorId: null, authorKind: 'SYSTEM' }));
    expect(await count(subject)).toBe(7);
  });

  it('is idempotent under concurrent upserts of one key', async () => {
    const subject = newId();
    const other = new PgAnnotationStore(await db.open(5));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? store : other).upsertAnnotation(base(subject, { facet: 'race', rating: i })),
      ),
    );
    expect(await count(subject)).toBe(1);
  });

  it('finds several subjects in one query, by subject then oldest first', async () => {
    const [a, b, none] = [newId(), newId(), newId()].sort();
    const a2 = await store.upsertAnnotation(base(a!, { label: 'second', at: new Date('2025-02-02Z') }));
    const b1 = await store.upsertAnnotation(base(b!, { at: new Date('2025-01-01Z') }));
    const a1 = await store.upsertAnnotation(base(a!, { label: 'first', at: new Date('2025-02-01Z') }));
    expect(await store.findBySubjects([b!, none!, a!, b!])).toEqual([a1, a2, b1]);
    expect(await store.findBySubjects([])).toEqual([]);
    expect(await store.findBySubject(none!)).toEqual([]);
  });

  it('refuses what the table would refuse with INVALID_ARGUMENT naming the field', async () => {
    const subject = newId();
    const refusals: [Partial<AnnotationInput>, RegExp][] = [
      [{ subjectId: 'not-a-uuid' }, /subjectId must be a UUID/],
      [{ label: ' ' }, /label must not be blank/],
      [{ facet: 'x'.repeat(256) }, /facet exceeds 255/],
      [{ authorKind: 'ROBOT' as 'HUMAN' }, /authorKind must be one of HUMAN, MODEL, SYSTEM/],
      [{ rating: 1.5 }, /rating must be an integer/],
      [{ rating: 40000 }, /rating must be an integer/],
    ];
    for (const [change, message] of refusals) {
      await expect(store.upsertAnnotation(base(subject, change))).rejects.toThrow(message);
      await expect(store.upsertAnnotation(base(subject, change))).rejects.toBeInstanceOf(
        InvalidArgumentError,
      );
    }
    await expect(store.findBySubjects(['x'])).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await count(subject)).toBe(0);
  });

  it('pages oldest first with limit and offset, saying whether more follow', async () => {
    const label = `page-${newId()}`;
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await store.upsertAnnotation(base(newId(), { label, at: new Date(Date.UTC(2030, 0, 1, 0, 0, i)) })),
      );
    }
    const filter = `label eq "${label}"`;
    const first = await store.list({ limit: 2 }, filter);
    expect(first).toEqual({ items: made.slice(0, 2), hasMore: true, nextOffset: 2 });
    const second = await store.list({ limit: 2, offset: first.nextOffset }, filter);
    expect(second).toEqual({ items: made.slice(2, 4), hasMore: true, nextOffset: 4 });
    expect(await store.list({ limit: 2, offset: 4 }, filter)).toEqual({
      items: made.slice(4),
      hasMore: false,
      nextOffset: undefined,
    });
    expect((await store.list({ limit: 1000 })).items.length).toBeGreaterThanOrEqual(5);
    await expect(store.list({ limit: 0 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(store.list({ limit: 1001 })).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(store.list({ offset: -1 })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});
