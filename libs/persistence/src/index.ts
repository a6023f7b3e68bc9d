/**
 * @helios/persistence — PostgreSQL for Helios: an embedded PostgreSQL server for zero-setup runs, and the
 * TypeORM entities and stores implementing the libraries' store interfaces.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {
  DataDirInUseError,
  EmbeddedPostgres,
  EmbeddedPostgresError,
  type EmbeddedLogger,
  type EmbeddedPostgresOptions,
} from './embedded/embedded-postgres.js';
export { freePort } from './embedded/free-port.js';
export { commandLine, isAlive, stopPostmaster, waitForExit } from './embedded/process-utils.js';
