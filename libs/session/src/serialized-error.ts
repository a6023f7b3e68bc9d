/**
 * An error as data, for results, events and traces: kind (class name or a code such as `max-tokens`),
 * message, stack frames and cause chain (at most 16 deep). Every text passes through `redact`, so a
 * secret in an exception message never leaves the session.
 */
export interface SerializedError {
  readonly kind: string;
  readonly message: string;
  readonly stackTrace: readonly string[];
  readonly cause?: SerializedError;
}

const MAX_CAUSE_DEPTH = 16;

type Redact = (text: string) => string;
const identity: Redact = (text) => text;

function frames(error: Error, redact: Redact): readonly string[] {
  const lines = (error.stack ?? '').split('\n');
  return Object.freeze(lines.filter((line) => /^\s+at /.test(line)).map((line) => redact(line.trim())));
}

function serialize(error: unknown, redact: Redact, depth: number): SerializedError {
  if (!(error instanceof Error)) {
    return Object.freeze({
      kind: typeof error,
      message: redact(String(error)),
      stackTrace: Object.freeze([]),
    });
  }
  const cause =
    error.cause !== undefined && depth + 1 < MAX_CAUSE_DEPTH
      ? serialize(error.cause, redact, depth + 1)
      : undefined;
  return Object.freeze({
    kind: error.name,
    message: redact(error.message),
    stackTrace: frames(error, redact),
    ...(cause === undefined ? {} : { cause }),
  });
}

export const SerializedError = {
  of(error: unknown, redact: Redact = identity): SerializedError {
    return serialize(error, redact, 0);
  },
  /** An error the session names itself (`max-tokens`, `EmptyHistory`, `ProviderError`). */
  ofKind(kind: string, message: string): SerializedError {
    return Object.freeze({ kind, message, stackTrace: Object.freeze([]) });
  },
  withoutStackTrace(error: SerializedError): SerializedError {
    return Object.freeze({
      kind: error.kind,
      message: error.message,
      stackTrace: Object.freeze([]),
      ...(error.cause === undefined ? {} : { cause: SerializedError.withoutStackTrace(error.cause) }),
    });
  },
} as const;
