/**
 * Every entity of every table the migrations create, gathered from the domain folders. A DataSource
 * that reads through repositories registers them; the schema itself comes from the migrations (never
 * `synchronize`), and schema-drift.int.test.ts keeps the two descriptions equal.
 */
import { type EntitySchema } from 'typeorm';
import { type PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions.js';
import { GOVERNANCE_ENTITIES } from './governance/entities/index.js';
import { INSTANCE_ENTITIES } from './instance/instance-metadata.entity.js';
import { OBSERVABILITY_ENTITIES } from './observability/entities/index.js';
import { SESSION_ENTITIES } from './sessions/session.entities.js';

export const HELIOS_ENTITIES: readonly EntitySchema[] = [
  ...INSTANCE_ENTITIES,
  ...GOVERNANCE_ENTITIES,
  ...OBSERVABILITY_ENTITIES,
  ...SESSION_ENTITIES,
];

/**
 * The schema-related options of every Helios DataSource: the entities, no synchronize, and no extension
 * installed at connect. (`instance_metadata.id` is a generated uuid; without `installExtensions: false`
 * TypeORM would run CREATE EXTENSION "uuid-ossp" at every initialize. gen_random_uuid() is built in.)
 */
export function heliosEntityOptions(): Pick<
  PostgresDataSourceOptions,
  'entities' | 'synchronize' | 'installExtensions' | 'uuidExtension'
> {
  return {
    entities: [...HELIOS_ENTITIES],
    synchronize: false,
    installExtensions: false,
    uuidExtension: 'pgcrypto',
  };
}
