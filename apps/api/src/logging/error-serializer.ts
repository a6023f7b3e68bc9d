/** An error as it may appear in a log line: what identifies the fault, none of the data it carried. */
export interface LoggedError {
  readonly type: string;
  readonly message: string;
  readonly code?: string;
  /** The statement's SQL (placeholders, not the values bound to them), bounded. */
  readonly query?: string;
  /** Names from PostgreSQL's error fields, never values. */
  readonly table?: string;
  readonly column?: string;
  readonly constraint?: string;
  readonly stack?: string;
  readonly cause?: LoggedError;
  readonly errors?: readonly LoggedError[];
}

const MAX_QUERY_CHARS = 2_000;
const MAX_MESSAGE_CHARS = 1_000;
const MAX_DEPTH = 3;
const MAX_NESTED_ERRORS = 5;

/**
 * pino's `err` serializer. Its default copies every enumerable property, and a TypeORM QueryFailedError
 * carries the statement's `parameters`, the `driverError`, and (copied onto itself) PostgreSQL's
 * `detail`/`where`, which quote the values (`Key (id)=(…) already exists`): a log line carried every
 * value a caller sent. This keeps an allow-list of fields instead.
 */
export function serializeError(value: unknown): LoggedError {
  return describe(value, 0);
}

function describe(value: unknown, depth: number): LoggedError {
  if (!isErrorLike(value)) return { type: typeof value, message: bounded(String(value)) };
  const fields = value as Record<string, unknown>;
  const code = text(fields.code) ?? text((fields.driverError as { code?: unknown } | undefined)?.code);
  const message = bounded(withoutQuotedValues(value.message, code));
  const logged: Record<string, unknown> = { type: typeName(value), message };
  if (code !== undefined) logged.code = code;
  const query = text(fields.query);
  if (query !== undefined) logged.query = query.slice(0, MAX_QUERY_CHARS);
  for (const name of ['table', 'column', 'constraint'] as const) {
    const field = text(fields[name]);
    if (field !== undefined) logged[name] = field;
  }
  const stack = text(fields.stack);
  if (stack) logged.stack = stackWithMessage(stack, message);
  if (depth < MAX_DEPTH) {
    if (fields.cause !== undefined) logged.cause = describe(fields.cause, depth + 1);
    const inner = fields.errors ?? fields.aggregateErrors;
    if (Array.isArray(inner))
      logged.errors = inner.slice(0, MAX_NESTED_ERRORS).map((error) => describe(error, depth + 1));
  }
  return logged as unknown as LoggedError;
}

/**
 * An Error, or what pino's standard serializer made of one (pino-http runs it before ours): a plain
 * object with `type`, `message`, `stack` and every property of the error copied.
 */
function isErrorLike(value: unknown): value is { message: string } {
  return (
    value instanceof Error ||
    (typeof value === 'object' &&
      value !== null &&
      typeof (value as { message?: unknown }).message === 'string')
  );
}

function typeName(value: object): string {
  if (value instanceof Error) return value.constructor.name || value.name;
  return text((value as { type?: unknown }).type) ?? 'Error';
}

/**
 * PostgreSQL's data exceptions (SQLSTATE class 22) quote the offending input in their message
 * (`invalid input syntax for type integer: "…"`); the quoted part is masked.
 */
function withoutQuotedValues(message: string, code: string | undefined): string {
  return code?.startsWith('22') ? message.replace(/"(?:[^"]|"")*"/g, '"…"') : message;
}

/** The stack's first lines repeat the message; only the frames are kept after the masked one. */
function stackWithMessage(stack: string, message: string): string {
  const frames = stack.indexOf('\n    at ');
  const name = stack.slice(0, Math.max(0, stack.indexOf(':')));
  return `${name || 'Error'}: ${message}${frames === -1 ? '' : stack.slice(frames)}`;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function bounded(message: string): string {
  return message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS)}…` : message;
}
