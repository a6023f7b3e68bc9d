/**
 * The JavaScript analogue of the JVM's `Error`: a failure that says the code itself is broken, not that
 * an operation failed. Such an error is never retried, never turned into a tool result, hook Continue or
 * terminal; it ends the session (see README, "Unexpected programming errors").
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
