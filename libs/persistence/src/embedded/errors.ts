import { HeliosError } from '@helios/core';

/** The data directory is owned by another live process; two servers must never share one cluster. */
export class DataDirInUseError extends HeliosError {
  readonly code = 'DATA_DIR_IN_USE';
  constructor(
    readonly dataDir: string,
    readonly ownerPid: number,
  ) {
    super(
      `data directory ${dataDir} is in use by process ${ownerPid}; stop it or use another HELIOS_DATA_DIR`,
    );
  }
}

/** The embedded server could not be placed, initialised, started or locked. */
export class EmbeddedPostgresError extends HeliosError {
  readonly code = 'EMBEDDED_POSTGRES_FAILED';
}
