/**
 * The database schema the observability stores (PgAnnotationStore, PgPromptRegistry, PgTraceStore)
 * read and write. The name is the only identifier that configuration puts into SQL, so it is checked
 * at construction against PostgreSQL's identifier shape, `[A-Za-z_][A-Za-z0-9_]{0,62}` (reference
 * §4.2): a name that fails never reaches a statement. It is always used double-quoted, so it is taken
 * exactly as written (`Helios` and `helios` are different schemas, unlike an unquoted identifier).
 *
 * The migrations are schema-agnostic: they create their tables in the first schema of the connection's
 * search_path. To put the tables in a schema of your own, create it (`CREATE SCHEMA "helios"`) and run
 * the migrations on a DataSource whose connections start with that search_path:
 *
 *   new DataSource({ type: 'postgres', url, ...heliosEntityOptions(),
 *     extra: { options: config.searchPathOption() }, migrations: [...migrations] })
 *
 * Once the tables exist, the stores need no search_path: every statement names `"schema"."table"`.
 */
import { InvalidArgumentError } from '@helios/core';

/** PostgreSQL's unquoted-identifier shape (at most 63 characters, its NAMEDATALEN - 1). */
export const SCHEMA_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

export const DEFAULT_SCHEMA = 'public';

export interface PersistenceConfigOptions {
  /** The schema holding the helios_* tables (default `public`). */
  readonly schema?: string;
}

export class PersistenceConfig {
  static readonly DEFAULT = new PersistenceConfig();

  readonly schema: string;

  /** Throws InvalidArgumentError (INVALID_ARGUMENT) for a schema name outside SCHEMA_NAME_PATTERN. */
  constructor(options: PersistenceConfigOptions = {}) {
    const schema = options.schema ?? DEFAULT_SCHEMA;
    if (typeof schema !== 'string' || !SCHEMA_NAME_PATTERN.test(schema)) {
      throw new InvalidArgumentError(
        `schema name must match ${SCHEMA_NAME_PATTERN.source} (letters, digits and _, at most 63, ` +
          `not starting with a digit): ${JSON.stringify(schema)}`,
      );
    }
    this.schema = schema;
    Object.freeze(this);
  }

  /** `"schema"."table"`; `table` is one of the stores' own table names, checked all the same. */
  qualify(table: string): string {
    if (!SCHEMA_NAME_PATTERN.test(table)) throw new TypeError(`not a plain table name: ${table}`);
    return `"${this.schema}"."${table}"`;
  }

  /**
   * The libpq `options` string (`-c search_path="schema"`) for a DataSource that should run the
   * migrations into this schema: `extra: { options: config.searchPathOption() }`.
   */
  searchPathOption(): string {
    return `-c search_path="${this.schema}"`;
  }
}
