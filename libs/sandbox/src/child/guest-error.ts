/** Errors the child throws into a snippet. */

/** Thrown into the snippet by a native function: an Error with no host stack (paths never leak in). */
export function guestError(message: string): Error {
  const error = new Error(message);
  error.stack = '';
  return error;
}
