/**
 * @helios/persistence — TypeORM entities and PostgreSQL stores implementing the libraries' store interfaces.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {};
