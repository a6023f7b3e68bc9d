/**
 * Migration AnnotationsPrompts1765238400000 down and up again on a migrated database (with rows in its
 * tables): down removes exactly its tables, up brings back the same catalog.
 */
import { AnnotationsPrompts1765238400000 } from '@helios/migrations';
import { describe, expect, it } from 'vitest';
import { catalogFacts, publicTables } from '../../test/support/schema-catalog.js';
import { databaseTargets, sharedDatabase } from '../../test/support/pg-databases.js';
import { PgAnnotationStore } from './pg-annotation-store.js';
import { PgPromptRegistry } from './pg-prompt-registry.js';
import { inTransaction } from '../governance/sql.js';

const TABLES = ['helios_annotations', 'helios_prompt_labels', 'helios_prompts'];

describe.each(databaseTargets)(
  'migration AnnotationsPrompts1765238400000 on the %s database',
  (_name, makeDatabase) => {
    const db = sharedDatabase(makeDatabase);

    it('goes down and up again', async () => {
      const migration = new AnnotationsPrompts1765238400000();
      const tablesBefore = await publicTables(db.dataSource);
      const factsBefore = await catalogFacts(db.dataSource, TABLES);
      expect(tablesBefore).toEqual(expect.arrayContaining(TABLES));
      expect(factsBefore.length).toBeGreaterThan(20);
      await new PgPromptRegistry(db.dataSource).create('p', 'x', { labels: ['production'] });
      await new PgAnnotationStore(db.dataSource).upsertAnnotation({
        subjectId: '01900000-0000-7000-8000-000000000000',
        label: 'l',
        authorKind: 'HUMAN',
      });

      await inTransaction(db.dataSource, (runner) => migration.down(runner));
      expect(await publicTables(db.dataSource)).toEqual(
        tablesBefore.filter((table) => !TABLES.includes(table)),
      );

      await inTransaction(db.dataSource, (runner) => migration.up(runner));
      expect(await publicTables(db.dataSource)).toEqual(tablesBefore);
      expect(await catalogFacts(db.dataSource, TABLES)).toEqual(factsBefore);
      const prompt = await new PgPromptRegistry(db.dataSource).create('p', 'again');
      expect(prompt.version).toBe(1);
    });
  },
);
