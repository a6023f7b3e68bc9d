/**
 * Where the session reports what it drops or survives. `debug` is for routine drops (a full reader
 * missing a text delta), `warn` for control drops and failed hooks, `error` for an unexpected
 * programming error no run carries. Attached errors are already redacted.
 */
export interface SessionLogger {
  debug(message: string, error?: unknown): void;
  warn(message: string, error?: unknown): void;
  error(message: string, error?: unknown): void;
}

export const SessionLogger = {
  /** warn and error to the console; debug dropped (it can fire once per event per reader). */
  console(): SessionLogger {
    return Object.freeze({
      debug: () => undefined,
      warn: (message: string, error?: unknown) => console.warn(`[helios/session] ${message}`, error ?? ''),
      error: (message: string, error?: unknown) => console.error(`[helios/session] ${message}`, error ?? ''),
    });
  },
  silent(): SessionLogger {
    return Object.freeze({ debug: () => undefined, warn: () => undefined, error: () => undefined });
  },
} as const;
