/**
 * Why a grant refuses an argv, if it does: too many or too long arguments, a NUL (which no argv can
 * carry), any registered secret value (secrets reach the command through its environment only, so
 * they never sit in the model's tool call or in a process listing), or the grant's own validator.
 * Reasons name the argument's index, never its text.
 */
import { type Redactor } from '../secrets/redactor.js';

/** Refuses the call with the returned reason; undefined lets it run. */
export type ArgValidator = (args: readonly string[]) => string | undefined;

export const MAX_GRANT_ARGS = 1_000;
/** Summed UTF-8 bytes of all arguments; Linux refuses any single one over 128 KiB. */
export const MAX_GRANT_ARGV_BYTES = 128 * 1024;

export function argvRefusal(
  args: readonly string[],
  secrets: Redactor,
  validator: ArgValidator | undefined,
): string | undefined {
  if (args.length > MAX_GRANT_ARGS) {
    return `too many arguments: ${args.length}; at most ${MAX_GRANT_ARGS}`;
  }
  const bytes = args.reduce((sum, arg) => sum + Buffer.byteLength(arg, 'utf8'), 0);
  if (bytes > MAX_GRANT_ARGV_BYTES) {
    return `arguments too long: ${bytes} bytes; at most ${MAX_GRANT_ARGV_BYTES}`;
  }
  const withNul = args.findIndex((arg) => arg.includes('\0'));
  if (withNul >= 0) return `argument ${withNul} contains a NUL character`;
  const withSecret = args.findIndex((arg) => secrets.leaks(arg));
  if (withSecret >= 0) {
    return `argument ${withSecret} contains a registered secret value; a secret reaches the command only through its environment`;
  }
  const reason = validator?.(Object.freeze([...args]));
  return reason === undefined ? undefined : `refused by the grant's argument validator: ${reason}`;
}
