/** One problem in the configuration, located by its path (`server.port`) or environment variable. */
export interface ConfigIssue {
  readonly path: string;
  readonly message: string;
}

/** The configuration could not be loaded; carries every problem found, not just the first. */
export class ConfigError extends Error {
  readonly code = 'CONFIG_INVALID';

  constructor(
    readonly source: string,
    readonly issues: readonly ConfigIssue[],
  ) {
    super(
      `invalid configuration (${source}):\n${issues.map((i) => `  - ${i.path}: ${i.message}`).join('\n')}`,
    );
    this.name = 'ConfigError';
  }
}
