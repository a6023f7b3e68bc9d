/** PgPromptRegistry on real PostgreSQL: versions, labels, latest, render. */
import { InvalidArgumentError } from '@helios/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PromptNotFoundError, PromptVariableMissingError } from './errors.js';
import { PgPromptRegistry } from './pg-prompt-registry.js';

describe.each(databaseTargets)('PgPromptRegistry on the %s database', (_name, makeDatabase) => {
  const db = sharedDatabase(makeDatabase);
  let registry: PgPromptRegistry;

  beforeAll(() => {
    registry = new PgPromptRegistry(db.dataSource);
  });

  it('numbers versions per name from 1 and keeps every version as it was', async () => {
    const v1 = await registry.create('greet', 'Hello {{name}}', { metadata: { owner: 'team-a' } });
    const v2 = await registry.create('greet', 'Hi {{ name }}, welcome to {{place}}');
    const other = await registry.create('other', 'no variables');
    expect(v1).toMatchObject({
      name: 'greet',
      version: 1,
      content: 'Hello {{name}}',
      variables: ['name'],
      metadata: { owner: 'team-a' },
      labels: [],
    });
    expect(v2).toMatchObject({ version: 2, variables: ['name', 'place'], metadata: {} });
    expect(other.version).toBe(1);
    expect(await registry.versions('greet')).toEqual([v1, v2]);
    expect(await registry.get('greet', { version: 1 })).toEqual(v1);
    expect(await registry.versions('nobody')).toEqual([]);
  });

  it('gives the latest version when neither version nor label is named', async () => {
    await registry.create('latest', 'one');
    const two = await registry.create('latest', 'two');
    expect(await registry.get('latest')).toEqual(two);
    expect(await registry.get('missing')).toBeUndefined();
    expect(await registry.get('latest', { version: 3 })).toBeUndefined();
  });

  it('moves labels between versions, one version per (name, label)', async () => {
    const v1 = await registry.create('labelled', 'first', { labels: ['production', 'staging'] });
    expect(v1.labels).toEqual(['production', 'staging']);
    const v2 = await registry.create('labelled', 'second', { labels: ['staging'] });
    expect(v2.labels).toEqual(['staging']);
    expect((await registry.get('labelled', { label: 'production' }))?.version).toBe(1);
    expect((await registry.get('labelled', { label: 'staging' }))?.version).toBe(2);

    const moved = await registry.setLabel('labelled', 'production', 2);
    expect(moved.labels).toEqual(['production', 'staging']);
    expect((await registry.get('labelled', { version: 1 }))?.labels).toEqual([]);
    expect((await registry.get('labelled', { label: 'production' }))?.content).toBe('second');
    const labels = (await db.dataSource.query(
      `SELECT "label", "version" FROM "helios_prompt_labels" WHERE "name" = 'labelled' ORDER BY "label"`,
    )) as unknown[];
    expect(labels).toEqual([
      { label: 'production', version: 2 },
      { label: 'staging', version: 2 },
    ]);

    expect(await registry.removeLabel('labelled', 'staging')).toBe(true);
    expect(await registry.removeLabel('labelled', 'staging')).toBe(false);
    expect(await registry.get('labelled', { label: 'staging' })).toBeUndefined();
  });

  it('refuses a label on a version that does not exist', async () => {
    await registry.create('one-version', 'x');
    await expect(registry.setLabel('one-version', 'production', 2)).rejects.toBeInstanceOf(
      PromptNotFoundError,
    );
    await expect(registry.setLabel('no-such-prompt', 'production', 1)).rejects.toMatchObject({
      code: 'PROMPT_NOT_FOUND',
      message: 'prompt no-such-prompt version 1 does not exist',
    });
    await expect(registry.setLabel('one-version', 'production', 0)).rejects.toBeInstanceOf(
      InvalidArgumentError,
    );
    await expect(registry.create(' ', 'x')).rejects.toBeInstanceOf(InvalidArgumentError);
    expect(await registry.get('one-version', { label: 'production' })).toBeUndefined();
  });

  it('gives concurrent creators distinct consecutive versions', async () => {
    const other = new PgPromptRegistry(await db.open(5));
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) => (i % 2 ? registry : other).create('contended', `v ${i}`)),
    );
    expect(made.map((prompt) => prompt.version).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 12 }, (_, i) => i + 1),
    );
  });

  it('renders by version, by label and latest; a missing variable is named', async () => {
    await registry.create('render', 'Dear {{name}}', { labels: ['production'] });
    await registry.create('render', 'Hey {{name}}, your code is {{code}}');
    expect(await registry.render('render', { label: 'production' }, { name: 'Ada' })).toBe('Dear Ada');
    expect(await registry.render('render', { version: 1 }, { name: 'Ada', unused: 1 })).toBe('Dear Ada');
    expect(await registry.render('render', undefined, { name: 'Ada', code: 42 })).toBe(
      'Hey Ada, your code is 42',
    );
    const missing = await registry
      .render('render', undefined, { name: 'Ada' })
      .catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(PromptVariableMissingError);
    expect(missing).toMatchObject({ code: 'PROMPT_VARIABLE_MISSING', missing: ['code'] });
    expect((missing as Error).message).toContain('{{code}}');
    await expect(registry.render('render', { label: 'staging' }, {})).rejects.toMatchObject({
      code: 'PROMPT_NOT_FOUND',
      message: 'prompt render label staging does not exist',
    });
  });
});
