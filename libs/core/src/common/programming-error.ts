/**
 * The JavaScript analogue of the JVM's `Error`: a failure that says the code itself is broken, not that
 * an operation failed. Whoever runs work on someone's behalf (a tool wrapper, a retry loop, a session)
 * never retries it and never turns it into a result; it lets the same instance through.
 *
 * The rule: a thrown value that is not an `Error` instance at all, or an Error whose class the engine
 * uses only for defects — `ReferenceError`, `SyntaxError`, `EvalError`, `RangeError` (stack overflow,
 * invalid lengths) — or a failed assertion (`AssertionError`, code `ERR_ASSERTION`). `TypeError` is
 * deliberately not in the list: the platform also throws it for operational failures (`fetch` network
 * errors, invalid URLs from input), so it is treated like any other ordinary Error.
 */
export function isProgrammingError(error: unknown): boolean {
  if (!(error instanceof Error)) return true;
  if (
    error instanceof ReferenceError ||
    error instanceof SyntaxError ||
    error instanceof EvalError ||
    error instanceof RangeError
  ) {
    return true;
  }
  return error.name === 'AssertionError' || (error as { code?: unknown }).code === 'ERR_ASSERTION';
}
