/** PersistenceConfig: the schema name is checked at construction, so an invalid one never reaches SQL. */
import { InvalidArgumentError } from '@helios/core';
import { type DataSource } from 'typeorm';
import { describe, expect, it } from 'vitest';
import { PgAnnotationStore } from './pg-annotation-store.js';
import { PgPromptRegistry } from './pg-prompt-registry.js';
import { PgTraceStore } from './pg-trace-store.js';
import { DEFAULT_SCHEMA, PersistenceConfig } from './persistence-config.js';

const INVALID = [
  'a;drop',
  'a;drop table helios_traces;--',
  '1abc',
  'x'.repeat(64),
  '',
  'with space',
  'quo"te',
  'é',
];
const VALID = ['public', 'helios', '_', '_x1', 'Helios_Tenant', 'a'.repeat(63)];

describe('PersistenceConfig', () => {
  it('defaults to the public schema', () => {
    expect(new PersistenceConfig().schema).toBe(DEFAULT_SCHEMA);
    expect(PersistenceConfig.DEFAULT.qualify('helios_traces')).toBe('"public"."helios_traces"');
  });

  it.each(VALID)('accepts %j and quotes it as written', (schema) => {
    const config = new PersistenceConfig({ schema });
    expect(config.qualify('helios_spans')).toBe(`"${schema}"."helios_spans"`);
    expect(config.searchPathOption()).toBe(`-c search_path="${schema}"`);
  });

  it.each(INVALID)('refuses %j with INVALID_ARGUMENT', (schema) => {
    expect(() => new PersistenceConfig({ schema })).toThrow(InvalidArgumentError);
    expect(() => new PersistenceConfig({ schema })).toThrow(/schema name must match/);
  });

  it('refuses a schema that is not a string', () => {
    expect(() => new PersistenceConfig({ schema: 42 as unknown as string })).toThrow(InvalidArgumentError);
  });

  it('refuses a table name that is not a plain identifier (a programming error)', () => {
    expect(() => PersistenceConfig.DEFAULT.qualify('t"; drop')).toThrow(TypeError);
  });

  it('lets no store be built, and no statement be sent, with an invalid schema', () => {
    const sent: string[] = [];
    const dataSource = {
      query: async (sql: string) => void sent.push(sql),
      createQueryRunner: () => {
        throw new Error('no runner expected');
      },
    } as unknown as DataSource;
    const logger = { warn: () => undefined, error: () => undefined };
    for (const schema of INVALID) {
      expect(
        () => new PgTraceStore(dataSource, { logger, config: new PersistenceConfig({ schema }) }),
      ).toThrow(InvalidArgumentError);
      expect(() => new PgAnnotationStore(dataSource, new PersistenceConfig({ schema }))).toThrow(
        InvalidArgumentError,
      );
      expect(() => new PgPromptRegistry(dataSource, new PersistenceConfig({ schema }))).toThrow(
        InvalidArgumentError,
      );
    }
    expect(sent).toEqual([]);
  });
});
