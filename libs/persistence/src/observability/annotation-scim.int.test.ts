/**
 * SCIM filters through PgAnnotationStore.list on real PostgreSQL: every operator against known rows,
 * and injection attempts, which are refused or bound as values (the table survives either way).
 */
import { newId } from '@helios/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { type Annotation } from './annotation.js';
import { ScimFilterError } from './errors.js';
import { PgAnnotationStore } from './pg-annotation-store.js';

describe.each(databaseTargets)('SCIM filters on annotations, %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let store: PgAnnotationStore;
  const rows: Record<string, Annotation> = {};
  const subject = newId();

  /** The names of the rows a filter selects, in list order. */
  const names = async (filter: string): Promise<string[]> => {
    const page = await store.list({ limit: 100 }, filter);
    const byId = new Map(Object.entries(rows).map(([name, row]) => [row.id, name]));
    return page.items.map((item) => byId.get(item.id) ?? `unexpected ${item.id}`);
  };

  const tableExists = async (): Promise<boolean> => {
    const found = (await db.dataSource.query(
      `SELECT to_regclass('helios_annotations') IS NOT NULL AS ok`,
    )) as {
      ok: boolean;
    }[];
    return found[0]?.ok === true;
  };

  beforeAll(async () => {
    store = new PgAnnotationStore(db.dataSource);
    const at = (day: number): Date => new Date(Date.UTC(2025, 5, day));
    rows.a = await store.upsertAnnotation({
      subjectId: subject,
      facet: 'tone',
      label: 'helpful',
      authorKind: 'HUMAN',
      authorId: 'ann',
      rating: 1,
      comment: '50% off_sale',
      at: at(1),
    });
    rows.b = await store.upsertAnnotation({
      subjectId: subject,
      label: 'helpful',
      authorKind: 'MODEL',
      authorId: 'judge-v2',
      rating: 4,
      comment: '500 offsale',
      at: at(2),
    });
    rows.c = await store.upsertAnnotation({
      subjectId: newId(),
      facet: '',
      label: 'harmful',
      authorKind: 'SYSTEM',
      rating: null,
      comment: null,
      at: at(3),
    });
    rows.d = await store.upsertAnnotation({
      subjectId: newId(),
      facet: 'Tone',
      label: 'x',
      authorKind: 'HUMAN',
      authorId: 'bob',
      rating: 5,
      comment: 'with "quotes" and \\ backslash',
      at: at(4),
    });
  });

  it.each([
    ['eq', 'label eq "helpful"', ['a', 'b']],
    ['eq is case-exact', 'facet eq "tone"', ['a']],
    ['eq on a uuid', `subjectId eq "${subject}"`, ['a', 'b']],
    ['eq null', 'rating eq null', ['c']],
    ['ne (absent counts as not equal)', 'facet ne "tone"', ['b', 'c', 'd']],
    ['ne null', 'authorId ne null', ['a', 'b', 'd']],
    ['co', 'comment co "off"', ['a', 'b']],
    ['co escapes %', 'comment co "0%"', ['a']],
    ['co escapes _', 'comment co "f_s"', ['a']],
    ['co with quotes and backslash', 'comment co "\\"quotes\\" and \\\\"', ['d']],
    ['sw', 'label sw "h"', ['a', 'b', 'c']],
    ['sw escapes %', 'comment sw "50%"', ['a']],
    ['ew', 'authorId ew "-v2"', ['b']],
    ['ew escapes _', 'comment ew "_sale"', ['a']],
    ['gt', 'rating gt 4', ['d']],
    ['ge', 'rating ge 4', ['b', 'd']],
    ['lt', 'rating lt 4', ['a']],
    ['le', 'rating le 4', ['a', 'b']],
    ['gt on a timestamp', 'createdAt gt "2025-06-02T00:00:00Z"', ['c', 'd']],
    ['le on a date', 'createdAt le "2025-06-02"', ['a', 'b']],
    ['pr (text: non-empty)', 'facet pr', ['a', 'd']],
    ['pr (number)', 'rating pr', ['a', 'b', 'd']],
    ['and', 'label eq "helpful" and rating gt 1', ['b']],
    ['or', 'authorKind eq "SYSTEM" or authorId eq "bob"', ['c', 'd']],
    ['not (absent counts as not matching)', 'not (rating ge 4)', ['a', 'c']],
    ['grouping', '(label eq "x" or label eq "harmful") and not (authorKind eq "HUMAN")', ['c']],
    ['case-insensitive operators and attributes', 'LABEL EQ "x" AND RaTiNg Pr', ['d']],
  ])('%s: %s', async (_what, filter, expected) => {
    expect(await names(filter)).toEqual(expected);
  });

  it('treats a blank filter as no filter', async () => {
    expect(await names('  ')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('binds SQL in values as a value: nothing matches and the table survives', async () => {
    for (const value of [
      `'; drop table helios_annotations; --`,
      `helpful' OR '1'='1`,
      `x"; drop table helios_annotations; --`,
    ]) {
      expect(await names(`label eq ${JSON.stringify(value)} or comment co ${JSON.stringify(value)}`)).toEqual(
        [],
      );
    }
    expect(await tableExists()).toBe(true);
    expect(await names('label eq "helpful"')).toEqual(['a', 'b']);
  });

  it('refuses SQL in attribute names before any SQL runs, with the position', async () => {
    const attempts: [string, number][] = [
      [`label; drop table helios_annotations; -- eq "x"`, 5],
      [`label"; drop table helios_annotations; -- eq "x"`, 5],
      [`label') or 1=1 -- eq "x"`, 5],
      [`rating eq 1 or label' eq "x"`, 20],
      [`pg_sleep eq 1`, 0],
      [`"label" eq "x"`, 0],
      [`label eq "x" or metadata eq "{}"`, 16],
    ];
    for (const [filter, position] of attempts) {
      const failure = await store.list({}, filter).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure, filter).toBeInstanceOf(ScimFilterError);
      expect(failure, filter).toMatchObject({ code: 'INVALID_FILTER', position });
    }
    expect(await tableExists()).toBe(true);
  });

  it('refuses ill-typed values as filter errors, not database errors', async () => {
    await expect(store.list({}, 'subjectId eq "1; drop"')).rejects.toMatchObject({ code: 'INVALID_FILTER' });
    await expect(store.list({}, 'rating eq "1"')).rejects.toMatchObject({ code: 'INVALID_FILTER' });
    await expect(store.list({}, 'createdAt gt "now()"')).rejects.toMatchObject({ code: 'INVALID_FILTER' });
  });
});
