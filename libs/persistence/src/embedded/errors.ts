/** The data directory is owned by another live process; two servers must never share one cluster. */
export class DataDirInUseError extends Error {
  readonly code = 'data_dir_in_use';
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `data directory ${dataDir} is in use by process ${ownerPid}; stop it or use another HELIOS_DATA_DIR`,
    );
    this.name = 'DataDirInUseError';
  }
}

export class EmbeddedPostgresError extends Error {
  readonly code = 'embedded_postgres_failed';
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'EmbeddedPostgresError';
  }
}
