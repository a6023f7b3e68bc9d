/**
 * Policy regexes run against model-chosen tool arguments on every decision, so they run on RE2
 * (re2js): matching time grows linearly with the input whatever the pattern. Patterns are written in
 * JavaScript RegExp syntax without flags and match anywhere in the value, like `RegExp.test`;
 * regex-translation.ts lists how that syntax maps onto RE2 and what is refused.
 */
import { RE2JS } from 're2js';
import { RegexTranslationError, translateRegex } from './regex-translation.js';

export interface PolicyRegex {
  /** The pattern as configured. */
  readonly source: string;
  /** Whether the pattern matches somewhere in `value`, in time linear in its length. */
  test(value: string): boolean;
}

/** Compiles a policy regex, or returns why it cannot be used. */
export function compileSafeRegex(source: string): PolicyRegex | string {
  try {
    // JavaScript's own parser first: its syntax errors are the ones a policy author recognises.
    new RegExp(source);
  } catch (error) {
    return `invalid regex: ${(error as Error).message}`;
  }
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(translateRegex(source));
  } catch (error) {
    const why = error instanceof RegexTranslationError ? error.message : (error as Error).message;
    return `regex ${JSON.stringify(source)} is refused: ${why} (policy regexes run on a linear-time engine, which has no backreferences or lookaround)`;
  }
  return Object.freeze({ source, test: (value: string) => compiled.test(value) });
}
